export const name = 'forgot to export answer';
