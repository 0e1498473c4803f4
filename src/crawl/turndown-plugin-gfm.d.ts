// @joplin/turndown-plugin-gfm ships no types. The plugins it exports, as used here: each adds its
// rules to a Turndown service (`service.use(gfm)`).
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  type Plugin = (service: TurndownService) => void;
  /** Tables, strikethrough, task lists and highlighted code blocks together. */
  export const gfm: Plugin;
  export const tables: Plugin;
  export const strikethrough: Plugin;
  export const taskListItems: Plugin;
  export const highlightedCodeBlock: Plugin;
}
