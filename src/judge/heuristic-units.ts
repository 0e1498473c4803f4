import { parsePassage } from './evidence.js';
import { analyze, type Analysis, type QuantityInContext, type Segment } from './heuristic-analysis.js';
import type { EvidencePassage } from './types.js';

/**
 * The heuristic judge compares claims with evidence *units*: single sentences, plus pairs of
 * adjacent sentences when the second one refers back to the first ("He was also awarded…",
 * "This replaces…"). Comparing sentence by sentence, not passage by passage, keeps a number or a
 * negation next to the statement it belongs to.
 */
export interface EvidenceUnit {
  passageId: string;
  /** The sentence, or both sentences of a pair. */
  text: string;
  /** Content stems of the sentence(s) themselves. */
  own: Set<string>;
  /** The same stems in reading order, repeats kept; the heading's come last, as their own phrase. */
  sequences: string[][];
  /** Content stems of the passage's title and section heading (context, not statement). */
  heading: Set<string>;
  /** The passage's title and section heading as written ("Pension and Benefits. Employee Assistance Programme"). */
  headingText: string;
  /** The sentence(s) cut into negation segments (see `Analysis.segments`). */
  segments: Segment[];
  /** Quantities of the sentence(s), then of the heading ("Training Under £1,000"). */
  quantities: QuantityInContext[];
  /** A pair of sentences rather than one. */
  pair: boolean;
  /**
   * A lead-in sentence joined with its list items: a statement a claim may quote whole, but not a
   * sentence of the passage for the context verdicts (its many words would cover any question).
   */
  list?: true;
  /** The fields of a table row (see `Analysis.row`); `null` for prose and for pairs. */
  row: Analysis['row'];
  /** Content stems of the whole passage the unit comes from (heading included). */
  passageStems: Set<string>;
  /**
   * The unit with the sentence before and after it: a claim that merges neighbouring sentences
   * ("25 days a year, rising by one day for each year of service") is verified against this.
   */
  neighbourhood: { own: Set<string>; segments: Segment[]; quantities: QuantityInContext[]; text: string };
  /**
   * Stems of the heading that are another passage's topic, not this one's: a title that lists its
   * document's topics ("Computers, wifi and printing") names, for a passage of one section ("Public
   * computers"), the topics of the others ("wifi": the passage of the same title whose section is
   * "Wifi"). Found among the evidence passages alone (v81); empty for most units.
   */
  elsewhere: ReadonlySet<string>;
  /** For a table row: every row of its table, in order (itself included); unset otherwise (v107). */
  table?: readonly EvidenceUnit[];
  /** For a table row: the sentence introducing its table ("… whether or not they are called out:"), when there is one (v107). */
  leadIn?: string;
}

export interface PassageInfo {
  id: string;
  title: string | null;
  updated: string | null;
  /** Content stems of the passage's section heading alone (empty without one). */
  section: Set<string>;
  /** Content stems of the passage's title alone (empty without one). */
  titleStems: Set<string>;
}

/** A sentence with one of these among its first three words continues the previous sentence's subject. */
const REFERS_BACK = /^(?:\S+\s+){0,2}(?:he|she|it|they|his|her|its|their|them|this|these|those|such)\b/i;

/** Build the evidence units of every passage, in passage order. */
export function buildUnits(evidence: readonly EvidencePassage[]): { units: EvidenceUnit[]; passages: PassageInfo[] } {
  const units: EvidenceUnit[] = [];
  const passages: PassageInfo[] = [];
  const parsedAll = evidence.map((passage) => parsePassage(passage));
  const infos = evidence.map((passage, index) => {
    const parsed = parsedAll[index]!;
    return { id: passage.id, title: parsed.title, updated: parsed.updated, section: analyze(parsed.section ?? '').stemSet, titleStems: analyze(parsed.title ?? '').stemSet };
  });
  for (const [index, passage] of evidence.entries()) {
    const parsed = parsedAll[index]!;
    passages.push(infos[index]!);
    const headingText = [parsed.title, parsed.section].filter(Boolean).join('. ');
    const heading = analyze(headingText);
    const sentences = parsed.sentences.map((text) => ({ text, analysis: analyze(text) }));
    const elsewhere = topicsOfOtherSections(infos[index]!, infos, sentences.map((sentence) => sentence.analysis));
    const passageStems = new Set([...heading.stemSet, ...sentences.flatMap((sentence) => sentence.analysis.stems)]);
    const neighbourhood = (first: number, last: number) => {
      const aroundSentences = sentences.slice(Math.max(0, first - 1), last + 2);
      const around = aroundSentences.map((sentence) => sentence.analysis);
      return {
        text: aroundSentences.map((sentence) => sentence.text).join(' '),
        own: new Set(around.flatMap((analysis) => analysis.stems)),
        segments: around.flatMap((analysis) => analysis.segments),
        quantities: [...around.flatMap((analysis) => analysis.quantities), ...heading.quantities],
      };
    };
    // The row units of each table of the passage, by the index of its first row.
    const tables = new Map<number, EvidenceUnit[]>();
    sentences.forEach((sentence, index) => {
      // A table row is about what the sentence introducing the table says, like its title and section.
      const leadIn = sentence.analysis.row !== null ? tableLeadIn(sentences, index) : null;
      const rowHeading = leadIn ? new Set([...heading.stemSet, ...leadIn.stems]) : heading.stemSet;
      const list = listAfter(sentences, index);
      if (list > index) {
        // A lead-in ("…the following modules:") and its list items are one statement.
        const text = sentences.slice(index, list + 1).map((entry) => entry.text.replace(/[.;,]$/, '')).join('; ');
        const analysis = analyze(text);
        units.push({
          passageId: passage.id,
          text,
          own: analysis.stemSet,
          sequences: [analysis.sequence, heading.sequence],
          heading: heading.stemSet,
          headingText,
          segments: analysis.segments,
          quantities: [...analysis.quantities, ...heading.quantities],
          pair: true,
          list: true,
          row: null,
          passageStems,
          neighbourhood: neighbourhood(index, list),
          elsewhere,
        });
      }
      const unit: EvidenceUnit = {
        passageId: passage.id,
        text: sentence.text,
        own: sentence.analysis.stemSet,
        sequences: leadIn ? [sentence.analysis.sequence, heading.sequence, leadIn.sequence] : [sentence.analysis.sequence, heading.sequence],
        heading: rowHeading,
        headingText,
        segments: sentence.analysis.segments,
        quantities: [...sentence.analysis.quantities, ...heading.quantities],
        pair: false,
        row: sentence.analysis.row,
        passageStems,
        neighbourhood: neighbourhood(index, index),
        elsewhere,
        ...(leadIn ? { leadIn: leadInText(sentences, index) } : {}),
      };
      units.push(unit);
      if (sentence.analysis.row !== null) {
        const first = tableStart(sentences, index);
        const rows = tables.get(first) ?? [];
        rows.push(unit);
        tables.set(first, rows);
        unit.table = rows;
      }
      const next = sentences[index + 1];
      if (next && REFERS_BACK.test(next.text)) {
        units.push({
          passageId: passage.id,
          text: `${sentence.text} ${next.text}`,
          own: new Set([...sentence.analysis.stemSet, ...next.analysis.stemSet]),
          sequences: [sentence.analysis.sequence, next.analysis.sequence, heading.sequence],
          heading: heading.stemSet,
          headingText,
          segments: [...sentence.analysis.segments, ...next.analysis.segments],
          quantities: [...sentence.analysis.quantities, ...next.analysis.quantities, ...heading.quantities],
          pair: true,
          row: null,
          passageStems,
          neighbourhood: neighbourhood(index, index + 1),
          elsewhere,
        });
      }
    });
  }
  return { units, passages };
}

/** A title that lists several topics: "Computers, wifi and printing", "Borrowing and returns". */
const LISTING_TITLE = /,|\band\b|&/i;

/**
 * The title's stems that name another evidence passage's section and not this passage's own
 * section or sentences, when the title lists topics (see `EvidenceUnit.elsewhere`). A title that
 * names one topic ("Leave Policy") is every section's topic, and keeps it.
 */
function topicsOfOtherSections(passage: PassageInfo, all: readonly PassageInfo[], sentences: readonly Analysis[]): ReadonlySet<string> {
  if (passage.title === null || !LISTING_TITLE.test(passage.title) || passage.section.size === 0) return EMPTY_STEMS;
  let found: Set<string> | null = null;
  for (const other of all) {
    if (other.id === passage.id || other.title !== passage.title) continue;
    for (const stem of other.section) {
      if (!passage.titleStems.has(stem) || passage.section.has(stem)) continue;
      found ??= new Set();
      found.add(stem);
    }
  }
  if (found === null) return EMPTY_STEMS;
  for (const stem of found) if (sentences.some((sentence) => sentence.stemSet.has(stem))) found.delete(stem);
  return found;
}

const EMPTY_STEMS: ReadonlySet<string> = new Set();

/** The index of the first row of the table the row at `index` belongs to. */
function tableStart(sentences: readonly { analysis: Analysis }[], index: number): number {
  let first = index;
  while (first > 0 && sentences[first - 1]!.analysis.row !== null) first -= 1;
  return first;
}

/** The text of a table row's lead-in sentence (see {@link tableLeadIn}). */
function leadInText(sentences: readonly { text: string; analysis: Analysis }[], index: number): string {
  return sentences[tableStart(sentences, index) - 1]?.text ?? '';
}

/**
 * The sentence that introduces the table a row belongs to ("…up to these daily limits:"): the
 * sentence before the table's first row, when it ends with ":". Like the title and section, it
 * says what every row is about.
 */
function tableLeadIn(sentences: readonly { text: string; analysis: Analysis }[], index: number): Analysis | null {
  const before = sentences[tableStart(sentences, index) - 1];
  return before && before.text.trimEnd().endsWith(':') ? before.analysis : null;
}

/** The most list items a lead-in sentence is joined with. */
const LIST_MAX_ITEMS = 12;

/**
 * The index of the last item of the list a sentence introduces: the sentence ends with ":" and is
 * followed by items that are not sentences of their own (no closing full stop) nor table rows.
 * Returns `index` itself when there is no such list.
 */
function listAfter(sentences: readonly { text: string; analysis: { row: unknown } }[], index: number): number {
  if (!sentences[index]!.text.trimEnd().endsWith(':')) return index;
  let last = index;
  while (last + 1 < sentences.length && last - index < LIST_MAX_ITEMS) {
    const next = sentences[last + 1]!;
    if (next.analysis.row !== null || /[.!?:]$/.test(next.text.trimEnd())) break;
    last += 1;
  }
  return last;
}
