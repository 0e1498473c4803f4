import { spellOutAcronyms } from '../text/acronyms.js';
import type { GroundcheckIndex } from './store.js';

/**
 * `text` with each acronym the corpus never writes ("SPL", "2FA") replaced by the words the corpus
 * spells it out with ("shared parental leave"; `src/text/acronyms.ts`, `acronymSpellings`), for
 * searching and gating; an acronym the corpus holds, or spells out nowhere, stays as it is. Costs
 * one vocabulary lookup per question with an acronym; the table of spellings-out is built once per
 * index state, when a question first needs it (11 ms on the handbook, 270 ms on SciFact's 5,183
 * abstracts; it reads every chunk's section heading and text).
 *
 * @example
 * await expandAcronyms(index, 'how much SPL can I take') // 'how much shared parental leave can I take'
 */
export async function expandAcronyms(index: GroundcheckIndex, text: string): Promise<string> {
  return spellOutAcronyms(text, {
    written: (keys) => new Set(index.corpusStatistics().documentFrequencies(keys).keys()),
    spellings: () => index.acronymSpellings(),
  });
}
