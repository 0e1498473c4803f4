import { parseChunkText, type PromptDocument } from '../../contract/formats.js';
import { contentStemsWithDigits, numberWordsToDigits } from '../../text/numbers.js';
import { sentenceUnits, stem, STOPWORDS, words } from '../../text/text.js';
import { figureConditions, questionFigures, type Figure, type FigureCondition } from './figures.js';

/** A document of the prompt, with the fields its source line carries. */
export interface SourceDocument {
  id: string;
  title: string;
  updated: string | null;
  section: string;
  /** 0 for the first document of the prompt (retrieval puts the best first). */
  rank: number;
}

/** One quotable unit of a document: a sentence, a list item or a table row. */
export interface SourceUnit {
  document: SourceDocument;
  /** Position within its document. */
  position: number;
  /** As it will be quoted (table rows written with their headers). */
  text: string;
  kind: 'sentence' | 'item' | 'row';
  /** A sentence ending in ":" that list items follow. */
  introducesList: boolean;
  /** Stems of the unit itself, number words as digits. */
  stems: ReadonlySet<string>;
  /** Stems of the document's title and section heading. */
  contextStems: ReadonlySet<string>;
  /** States a condition, limit or exception ("unless", "only if", "up to", "must"). */
  isCondition: boolean;
  /** Conditions the unit puts on figures ("less than £1,000", "grades 1 to 3"). */
  conditions: FigureCondition[];
  /** The figures the unit states, with the words around them. */
  figures: Figure[];
  /** Opens with a word that points back at the sentence before ("This", "It", "They", "These"). */
  refersBack: boolean;
}

/** One document of the prompt and its units in reading order. */
export interface Source {
  document: SourceDocument;
  units: SourceUnit[];
}

const CONDITION = /\b(?:unless|except|only if|only when|provided that|as long as|however|but|if|must|requires?|needs?|before|after|over|under|up to|at least|more than|less than|no more than|exceed|otherwise|within)\b/i;
const REFERS_BACK = /^(?:this|that|these|those|it|they|such|the same|each of these|both)\b/i;

/**
 * The prompt's documents as quotable sources: fields from each document's source line
 * (`parseChunkText`, the contract's parser), units from its body. A document without a source
 * line is all body, titled by its id.
 */
export function sourcesFromPrompt(documents: readonly PromptDocument[]): Source[] {
  return documents.map((promptDocument, rank) => {
    const parts = parseChunkText(promptDocument.text);
    const document: SourceDocument = {
      id: promptDocument.id,
      title: parts?.title || promptDocument.id,
      updated: parts?.updated ?? null,
      section: parts?.section ?? '',
      rank,
    };
    const contextStems = new Set(contentStemsWithDigits(`${document.title} ${document.section}`));
    const raw = sentenceUnits(parts?.body ?? promptDocument.text);
    const units = raw.map((unit, position): SourceUnit => ({
      document,
      position,
      text: unit.text,
      kind: unit.kind,
      introducesList: unit.kind === 'sentence' && unit.text.trimEnd().endsWith(':') && raw[position + 1]?.kind === 'item',
      stems: new Set(contentStemsWithDigits(unit.text)),
      contextStems,
      isCondition: unit.kind !== 'row' && CONDITION.test(unit.text),
      conditions: figureConditions(unit.text),
      figures: questionFigures(unit.text),
      refersBack: unit.kind === 'sentence' && REFERS_BACK.test(unit.text.trim()),
    }));
    return { document, units };
  });
}

/**
 * Stems of the words a text counts: the content words right after a number, up to the next
 * stopword or number ("25 days of annual leave": `dai`; "up to 6 counselling sessions": `counsel`,
 * `session`; "2 working days": `work`, `dai`). Number words count as numbers ("three weeks").
 * Read only for a "how many" question, so computed on first use and kept per unit ({@link perUnit}).
 */
export const countedStemsOf: (unit: SourceUnit) => ReadonlySet<string> = perUnit((unit) => countedStems(unit.text));

/**
 * A reading of a unit's text, computed on its first use and kept for the unit's life: most are
 * needed only for some questions, not for every unit of every prompt, and the offline answerer
 * runs on the request path.
 */
export function perUnit<T>(read: (unit: SourceUnit) => T): (unit: SourceUnit) => T {
  const kept = new WeakMap<SourceUnit, T>();
  return (unit) => {
    if (kept.has(unit)) return kept.get(unit)!;
    const value = read(unit);
    kept.set(unit, value);
    return value;
  };
}

/** "per mile", "per business mile": the one or two words after "per", one of which is the unit a rate is given in. */
const PER_UNIT = /\bper\s+([a-z]+)(?:\s+([a-z]+))?/gi;

/** The words a text gives rates per, as stems, stopwords left out ("per business mile" → `busi`, `mile`; "per mile for" → `mile`). */
export function perUnitsIn(text: string): Set<string> {
  const units = new Set<string>();
  for (const match of text.matchAll(PER_UNIT)) {
    for (const word of [match[1], match[2]]) if (word !== undefined && !STOPWORDS.has(word.toLowerCase())) units.add(stem(word.toLowerCase()));
  }
  return units;
}

/** The words a unit gives rates per ({@link perUnitsIn}); read only for a "how much … per X" question ({@link perUnit}). */
export const perUnitsOf: (unit: SourceUnit) => ReadonlySet<string> = perUnit((unit) => perUnitsIn(unit.text));

function countedStems(text: string): Set<string> {
  const tokens = numberWordsToDigits(words(text.replace(/(\d),(?=\d{3}\b)/g, '$1')));
  const counted = new Set<string>();
  tokens.forEach((token, at) => {
    if (!/^\d+$/.test(token)) return;
    for (let next = at + 1; next < tokens.length && next <= at + 3; next++) {
      const word = tokens[next]!;
      if (STOPWORDS.has(word) || /^\d/.test(word)) break;
      counted.add(stem(word));
    }
  });
  return counted;
}
