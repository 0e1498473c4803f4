// A target with no RAG-off mode: it always retrieves.
export const norag = false;
export default {
  async answer(question) {
    return { answer: 'Refunds are issued within 14 days.', chunks: [{ id: 'kb-101', text: 'Refunds are issued within 14 days of the returned item reaching our warehouse.' }] };
  },
};
