import { InvalidInputError, errorMessage } from '../errors.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { answerForJudging } from '../contract/notes.js';
import { splitAnswer, type Citation } from './claims.js';
import { hasStem } from './heuristic-tokens.js';
import { deriveFaithfulness, resolvePolicy } from './faithfulness-score.js';
import { analyze, analyzeClaim, type Analysis } from './heuristic-analysis.js';
import { identifiersOf } from './heuristic-identifiers.js';
import { askersWeekdays } from './heuristic-given.js';
import { relate, sameFigure } from './heuristic-quantities.js';
import { refusalNamedContexts } from './heuristic-refusal-topic.js';
import { figureAnchoredContexts, groundedContexts, judgeContexts, readQuestion, withAcronymsSpelledOut, withoutPersonalDetails } from './heuristic-context.js';
import type { AnswerWorking } from './heuristic-arithmetic.js';
import { refineContextsWithEncoder, withEncoderVersion, type SentenceEncoder } from './heuristic-encoder.js';
import { PRONOUN_SUBJECT, judgeClaim, judgeLetterCode, statesNothing } from './heuristic-match.js';
import { judgeBareYesNo } from './heuristic-yes-no.js';
import { expandCasual } from '../text/casual.js';
import { answerRelevance, asksForPersonalData, handsOverAskedData, referenceClaims, statesReferenceClaim } from './heuristic-relevance.js';
import { aboutAnotherSection, swappedModifier } from './heuristic-subject.js';
import { buildUnits, type EvidenceUnit, type PassageInfo } from './heuristic-units.js';
import { DEFAULT_PARAPHRASE_MODEL, PARAPHRASE_FEATURES, PARAPHRASE_NOTE_PREFIX, paraphraseFeatures, paraphraseProbability, paraphraseVersionSuffix, validParaphraseModel, type ParaphraseModel } from './heuristic-paraphrase.js';
import type { AnswerRelevance, FaithfulnessInput, FaithfulnessJudge, FaithfulnessJudgment, FaithfulnessPolicy, JudgedClaim, JudgeInfo, ReferenceClaim } from './types.js';

/**
 * Changes whenever the heuristic's rules or thresholds change (any judgment could change).
 * - `heuristic-v3`: passages read through the contract (fields, one-line source line); citations
 *   read by the contract's parser, so a title with parentheses ("Cycle Scheme (UK)") is one citation.
 * - `heuristic-v4`: judgment v2: context verdicts per chunk, answer relevance, personal-data
 *   questions, reference-claim recall; refusal correctness and the outcome derived in code.
 * - `heuristic-v5`: context verdicts grounded in the reference answer (a chunk stating it
 *   answers); relevance checked against where the reference is stated; prose claims with agreeing
 *   figures need 75% of their words; "no-" compounds are not negations; ", plus" / ", then" split
 *   claims; a list and its lead-in are one unit; a figure the evidence calls previous or superseded
 *   supports only a claim that says so.
 * - `heuristic-v6`: synonyms from WordNet (`heuristic-synonyms.ts`): a claim's or a question's word
 *   is found in a sentence that holds one of its synonyms (first three senses).
 * - `heuristic-v7`: dates read as bounds ("before 1 January 2026" holds "November 2025"; "from" is
 *   not "before"); a compound word is found written apart ("payday" / "pay day"); a claim's "old"
 *   or "former" figure may be the evidence's previous one.
 * - `heuristic-v8`: a claim's figure described by the passage's section words agrees with an equal
 *   figure of the sentence; a table row is read with the sentence that introduces the table; a
 *   sentence-initial word that is no English word is a name; requirement words ("need",
 *   "required", "must") and "the company" are word classes (`heuristic-word-classes.ts`); a
 *   question part that refers back ("…and how is it calculated?") carries the previous part's
 *   topic; personal-data questions read by the answerer's guardrail rule (v7's own rule took
 *   "What's the…" for a name); an answer stating every figure-bearing reference claim answers.
 * - `heuristic-v9`: a claim whose subject is a pronoun for what was asked ("it went up to £30 in
 *   October") has the question's words as its figures' context, as a bare answer has; words of
 *   rising ("went up", "rose", "increased") are a word class, found in a sentence that states a
 *   rise or a figure replacing a previous one.
 * - `heuristic-v10`: refusals in more words (`isRefusal`: "I couldn't find…", "I don't have any
 *   information…", "this isn't covered in the handbook", "I'm not able to give out…", contractions
 *   written out); after a refusal, a pointer to someone who may know ("You could ask Payroll.") and
 *   what the answer says of itself ("I only have the current rate", "that's confidential") are
 *   no claims.
 * - `heuristic-v11`: a chunk whose sentence states the rule for a figure the question names
 *   ("£6,000" against "training that costs more than £5,000 needs sign-off"; the figure's own
 *   words sharing one of the question's) answers the question, so a refusal there is an
 *   over-refusal even without a reference answer (`figureAnchoredContexts`).
 * - `heuristic-v12`: answers in the user's own words: a sentence-initial conjunction or preposition
 *   ("Since the placement is…") is not a name; a negation in a concession ("even if nobody calls
 *   you out") is not the claim's; a claim and a sentence that both negate, with scopes read
 *   differently ("won't do" / "is not enough"), agree; "unable" negates its verb.
 * - `heuristic-v13`: the asker's own details and figures: a number after a scale's label is its
 *   rank ("grade 3" within "grades 1 to 4"); "but not <word>," and a colon inside quotes split no
 *   clause; one question word the passage never uses is not missing from a figure-free claim
 *   ("Leeds counts as elsewhere in the UK"; `heuristic-given.ts`); a figure worked out from the
 *   question's and the evidence's figures agrees (`heuristic-arithmetic.ts`); a worked example's
 *   figures contradict nothing.
 * - `heuristic-v14`: a quantity question's answer holds a figure that can be the one asked for: a
 *   rate, a percentage, a length of time or a distance is not answered by a figure of another kind
 *   alone ("200 miles" for a mileage rate), nor a monthly amount by a one-off one or one for
 *   another period (`heuristic-asked.ts`); otherwise the answer is `partial`.
 * - `heuristic-v15`: a quantity or time question's answer whose claims open with a subject the
 *   question does not name, each resting on a chunk whose section heading names that subject and
 *   shares no word with the question, is `off_topic` ("Claims approved … are paid with that month's
 *   salary" for pay day: `heuristic-subject.ts`).
 * - `heuristic-v16`: a verb's, adjective's or adverb's WordNet synonyms come from its first ten
 *   senses (nouns keep three: `SYNONYM_SENSES`), and WordNet lemmas undo a doubled consonant
 *   ("stopped" → "stop"), so "ring" finds "phone"; acronyms, ", or" alternatives, reference facts
 *   split at ", which" / ", followed by", and table rows a synonym cannot tell apart.
 * - `heuristic-v17`: "minimum" / "maximum" words are found as a sentence's bound ("at least", "up
 *   to") in claims and in the context verdicts; a condition restating the asker's situation ("If
 *   you think it's unfair, …") is not looked for in the evidence; focus adverbs ("even", "either",
 *   "too") are light words; a reference claim with figures counts the question's words as the
 *   answer's ("It has to be at least 14 characters").
 * - `heuristic-v18`: a claim's two-word phrase that WordNet knows as one verb or adverb ("straight
 *   away", "pay back") is found as its synonym ("immediately", "repay"); a word is found as its
 *   abbreviation ("ext." for "extension"); "no later than" / "no more than" are bounds, not negations.
 * - `heuristic-v19`: a table's lead-in sentence ("Hotels must not exceed these caps:") holds the
 *   figures of its rows for the context verdicts; an answer giving another kind of the asked thing
 *   ("the meal limit" for "the hotel limit"), each kind with a section of its own, is `off_topic`
 *   (`swappedModifier`).
 * - `heuristic-v20`: "until" / "till" / "up to and including" before a date make it an end that
 *   takes in its own date ("August 2025" is inside "until 30 September 2025"); two bounds the same
 *   way agree when they draw the same line ("until 31 March" is "before 1 April").
 * - `heuristic-v21`: an answer to a personal-data question that names the person it asks about,
 *   or gives the secret asked for as a value, answers it (so it is `should_have_refused`, not
 *   `off_topic`): `handsOverAskedData`.
 * - `heuristic-v22`: an answer to a yes/no question about a figure ("Has it always been 6%?") that
 *   neither says yes or no nor gives a figure of that kind is `partial` (`speaksToAskedFigure`).
 * - `heuristic-v23`: a short aside in brackets inside a reference claim ("£40 per weekday night
 *   (17:00 to 09:00)") is a detail, not a fact an answer must state for reference recall.
 * - `heuristic-v24`: the first figure of a change ("rose from £160 to £190") is a previous figure,
 *   supporting only a claim that calls it old or previous (`withChanges` in heuristic-analysis.ts).
 * - `heuristic-v25`: times of day said the way people say them ("10am", "4 pm", "half past nine",
 *   "quarter to ten", "noon") are times, compared with "09:30" and "16:00".
 * - `heuristic-v26`: "the first 7 days", "your first 10,000 miles" are bounds (up to that many),
 *   like "up to 7 days".
 * - `heuristic-v27`: a bare answer written as a code of single letters ("F.E.A.R.", "R&B") is
 *   verified where a passage about the question writes it (`judgeLetterCode`); before, it had no
 *   word to check and was undetermined.
 * - `heuristic-v28`: contrasts. "Harbourline doesn't set your tax code, HMRC does" negates its
 *   subject, not its verb; the evidence's "…, not by Harbourline" rules out a claim that states
 *   Harbourline.
 * - `heuristic-v29`: multiples in words ("double your hourly rate", "time and a half") are figures;
 *   a table row does not verify a claim whose missing word labels another row of the same table
 *   ("Saturday" against the Sundays row).
 * - `heuristic-v30`: "the end of May" is 31 May, "the start of October 2025" 1 October 2025; "by
 *   31 May" and "31 May at the latest" are deadlines (on or before).
 * - `heuristic-v31`: a reference claim without figures is stated only by the answer's own words
 *   for what the question did not already say (an answer echoing the question states nothing).
 * - `heuristic-v32`: a list of actions ending in ", and <verb> <object>" splits there: the last
 *   action is a claim of its own (`splitAnswer`).
 * - `heuristic-v33`: for a question that is not yes/no, an answer whose every figure on a labelled
 *   scale leaves out the asker's own ("as a grade 2" — "grade 4 and above …") is `off_topic`.
 * - `heuristic-v34`: a claim about "it" that has words of its own for its figure ("It can be
 *   extended once by up to 4 weeks") is matched by them first; the question's words weigh half.
 * - `heuristic-v35`: in an answer (not a reference), ", and" before a determiner and a clause of
 *   its own ("…, and the company also pays your travel") ends a claim.
 * - `heuristic-v36`: "how quickly", "how fast", "how big/large/high/low" are quantity words like
 *   "how long", and "already", "ever" no topic words of a question.
 * - `heuristic-v37`: a table row does not verify a claim naming no row when the question names
 *   another row ("on a Sunday"); a claim of no limit ("as long as you like") is contradicted by a
 *   stated maximum; a claim opening with its figure ("At most 22.5 hours, …") is about what was
 *   asked; "worth" is a light word, and "pay"/"paid"/"receive"/"earn" in a claim stating an amount
 *   are found in a sentence giving one.
 * - `heuristic-v38`: "pay review" is personal data and "what he got" another person's (shared
 *   with the offline answerer); hedges are light; "avoid"/"skip" negate what follows; ", and
 *   they'll …" / ", and after that you …" end a claim in an answer.
 * - `heuristic-v39`: a relation noun of a claim ("Bob Barker's wife", "the founder of") must be
 *   found for a sentence to verify it.
 * - `heuristic-v40`: a bare "yes"/"no" to "Are both A and B P?" / "Are A and B both P?" is judged
 *   by the two claims the question states (`heuristic-yes-no.ts`); undetermined unless the
 *   evidence verifies both or contradicts one.
 * - `heuristic-v41`: the question is read with chat-box spellings written out ("hols", "mgr",
 *   "isnt"; `src/text/casual.ts`), as retrieval reads it.
 * - `heuristic-v42`: an hour after a day and "at" ("Wednesdays at 11") is a time.
 * - `heuristic-v43`: two dates without a year are compared in one year ("mid-November" is "after
 *   1 October"); "mid" is a light word.
 * - `heuristic-v44`: a word is found in a sentence holding another form of it that WordNet
 *   records: an irregular form ("hears" / "heard", "paid" / "pay") or a derivationally related
 *   word ("decide" / "decision"); a word of proportion ("half", "twice") must be found.
 * - `heuristic-v45`: a short social remark ("Congratulations to you both!", "Sorry to hear
 *   that.") is no claim; the words of discourse expressions ("as long as", "so far", "bear in
 *   mind") are not looked for in the evidence.
 * - `heuristic-v46`: the contract's `isRefusal` knows refusals in chat wording ("I can't see
 *   anything about that in the docs", "No idea, sorry", "The handbook is silent on this"), and
 *   after a refusal more pointers are no claims ("Worth asking Payroll.", "I'd ask your manager.").
 * - `heuristic-v47`: answers written the way chat models write them: numbered source markers
 *   ("[1]") and a sources footer are no claims or figures; what an answer says about itself before
 *   a colon ("Short answer:", "The handbook says:", "Great news -") is no claim; "wks", "hrs" are
 *   units; a figure's own words pick the evidence figure before the question's ("then 13 weeks
 *   unpaid" in a list, "That makes 52 weeks in total").
 * - `heuristic-v48`: a purpose after a negated verb and its object is not negated ("must not split
 *   a course into smaller bookings to stay under the threshold"); "Yep"/"Yeah" and "Nope"/"Nah"
 *   read as "Yes" and "No"; the speaker's attitude ("Unfortunately", "Luckily") is a light word.
 * - `heuristic-v49`: "today", "tomorrow", "yesterday", "tonight" in a question say when the asker
 *   asks, not what about: they are no topic words.
 * - `heuristic-v50`: the contract's `isRefusal` knows more refusal wordings ("I don't have access
 *   to that information", "None of the documents mention …", "It's not clear from the documents",
 *   "I can only answer from the documents, and they don't …"); "It's not covered." alone is an
 *   answer, not a refusal.
 * - `heuristic-v51`: "five hundred", "fifteen hundred", "two thousand" are numbers (500, 1,500, 2,000).
 * - `heuristic-v52`: seconds, minutes and hours convert ("within 60 minutes" is "within 1 hour");
 *   a clause that only reassures ("Don't panic!") is no claim.
 * - `heuristic-v53`: a short instruction ("Email privacy@… within 1 hour", "Ring your manager by
 *   09:30") is a claim of its own, not a bare answer read against the question.
 * - `heuristic-v54`: contractions are verbs ("it's not a disciplinary thing" is a claim, not a bare
 *   answer); agreeing with the asker and nothing else ("that's still right") is no claim; a word
 *   is found as its WordNet synonym of several words ("ahead" as "in advance"); a figure after "or"
 *   shares the words of the figure before it ("one block of 4 weeks or two blocks of 2 weeks").
 * - `heuristic-v55`: a claim about every case ("every course needs written approval", "all
 *   passwords must be changed every 90 days") is not verified by a sentence that states it for
 *   some cases only ("Training costing £1,000 or more needs …"): the sentence must speak of every
 *   case too ("every", "all", "each", "any", "regardless"…), or the claim must state the sentence's
 *   own condition ("every course costing £1,000 or more").
 * - `heuristic-v56`: an answer that names a word of the question no passage holds ("Is there a
 *   canteen…?" answered "There's no canteen, but…") is not off topic: it speaks to the question
 *   from somewhere other than the sources, so when no chunk answers it should have been a refusal.
 * - `heuristic-v57`: the contract's `isRefusalAside` knows more pointers after a refusal ("If you
 *   want to understand your own 3%, your manager can go through it with you", "HR is the place to
 *   go", "I'd recommend getting in touch with Facilities"): no claims to check.
 * - `heuristic-v58`: a clause of light words only ("Probably yes.", "Maybe.") states nothing, like a
 *   bare "Yes.": it is no claim, and a reference answer's such clause grounds no chunk.
 * - `heuristic-v59`: a sentence that names a claim's group as a whole (a bare plural, nothing
 *   narrowing it: "… provided to … field engineers and members of the Sales team") backs "All
 *   field engineers get …"; one that narrows it ("employees on an on-call rota") still does not
 *   back "Every employee gets …".
 * - `heuristic-v60`: a bare answer's words must stand together part by part (between commas) and
 *   without light words or units ("Possibly, through income protection", "25 days a year"); linking
 *   verbs ("counts as", "covers") make a clause; a subject set off by an aside describes the
 *   sentence's figure; calendar days and weeks convert ("two weeks" is "at least 14 days"'s limit);
 *   "24 pence" is 24p; "The handbook says …" is stripped like "The handbook says:"; more refusal
 *   wordings and asides.
 * - `heuristic-v61`: figures in chat wording ("a week, max", "within an hour at the latest", "14
 *   characters minimum", "no shorter than", "half nine", "eighty quid", "2x"); a negated strict
 *   bound is the opposite bound ("can't hold more than 3 days" is at most 3 days); the asker's rank
 *   ("grade 3") picks the table row; a share of pay is an amount ("puts in 6%"); a single figure
 *   is compared with the single figures among equally near ones.
 * - `heuristic-v62`: a question back to the user is no claim; more refusal wordings and pointers
 *   after a refusal; a claim stating two figures may rest on a sentence and its neighbours (as
 *   claims of eight content words do), each figure agreeing.
 * - `heuristic-v63`: after a refusal, an unsupported sentence with no figure, name, address or
 *   phone number ("You'd normally just book annual leave for it") is advice, no claim: the refusal
 *   is judged as a refusal. A figure or a name slipped in still makes it `hallucinated`.
 * - `heuristic-v64`: claims are read with chat spellings written out, as the question is ("5 mins",
 *   "Mon to Fri"; weekday abbreviations added to the list); "thirty-seven and a half" is 37.5;
 *   "per person" is "per head" in a claim stating an amount.
 * - `heuristic-v65`: words for the documents and for comparing ("policy", "rules", "procedure",
 *   "difference") say how a question is asked, not what it is about.
 * - `heuristic-v66`: a question's acronym that the evidence does not write is read as the words the
 *   evidence spells it out with ("SPL": "Shared Parental Leave"), as retrieval reads it.
 * - `heuristic-v67`: a question whose whole topic is two words side by side ("a second job") is not
 *   answered by an answer holding one of them and neither the other nor a synonym of it.
 * - `heuristic-v68`: a request for another person's data typed without apostrophes ("whats my
 *   managers salary") or asked with a verb ("how much does my manager earn") is read as one.
 * - `heuristic-v69`: the two-word topic of v67 ends in a word that can name a thing (WordNet):
 *   "can I get glasses paid for?" is none.
 * - `heuristic-v70`: a short sentence whose verb is not in the verb list ("we reply within 10
 *   working days", "towel hire costs £2") is a claim of its own, not a bare answer to the question.
 * - `heuristic-v71`: an acronym typed in lower case ("spl", "2fa") is read as one (v66).
 * - `heuristic-v72`: a question about keys ("where do I find my API key") is no request for a
 *   secret; "happen", "find", adverb particles and currency names are words of how it is asked.
 * - `heuristic-v73`: an aside in brackets right after a claim's opening phrase ("Garden waste
 *   (green bin) is …") is part of what the claim is about (v15's another-section check).
 * - `heuristic-v74`: a cross-reference ("(see Travel and Expenses)") in an answer or the sentence
 *   it
 *   rests on is no part of what it says, for answer relevance.
 * - `heuristic-v75`: a closed compound of the question written apart in the evidence ("wifi":
 *   "Wi-Fi") is held there; a day holds by its group ("Saturday": "weekends"); a verb after the
 *   question's subject ("does breakfast finish") and indefinite words ("somewhere") are how it is
 *   asked, not what about.
 * - `heuristic-v76`: a question asking where another person is ("which room is my husband in",
 *   "where does my manager live") asks for their personal data.
 * - `heuristic-v77`: a short sentence with a plural subject and a verb after it ("all rentals
 *   include …", "extra miles cost 25p") is a statement, not a bare answer; a phrasal verb the
 *   evidence writes as one word ("broke down": "breakdown") is read as that word; "limit", "cap",
 *   "new" and "old" that no passage holds, and a passive's "got", are how a question is asked.
 * - `heuristic-v78`: a "how often" question is answered by a frequency in words ("every month",
 *   "weekly"), as by a figure.
 * - `heuristic-v79`: a number asked for ("what's your phone number") that no passage holds is the
 *   value asked for, no topic word nor half of a phrase, and a phone, account or reference number is
 *   no quantity.
 * - `heuristic-v80`: the subject of a verb after it ("does scanning cost anything": scanning) must
 *   be in the answer or the sentence it rests on; "anymore" is how a question is asked; a question is
 *   checked for personal data with its chat spellings written out ("whats the password for …").
 * - `heuristic-v81`: an answer that speaks of the rest of a question while another passage holds
 *   the whole of it is off topic ("do I need to be a member to use the wifi" answered with the
 *   public computers' rule for members); a source citation is not what an answer says; a title's
 *   word that is another evidence passage's section ("wifi" of "Computers, wifi and printing") is
 *   no credit to the others; "all" before a clause boundary speaks of every case whatever follows
 *   the boundary ("in all branches; other dogs …"); "when" after another question word states a
 *   condition ("what happens to my plan when I cancel"), not a time asked for.
 * - `heuristic-v82`: a compound with the prefix "e" is found written with its hyphen ("ebooks" in
 *   "e-books"), as v75 finds "wifi" in "Wi-Fi".
 * - `heuristic-v83`: a question asking where another person sits or is ("where is my friend
 *   sitting", "which seat is my wife in") asks for personal data, as v76's "which room is my
 *   husband in" does; "happening" is how a question is asked.
 * - `heuristic-v84`: "sorry you're going through that" is a social remark; a rule stated "in all
 *   offices" backs a claim about all of them; "won't … until" is a condition, not a reversal;
 *   "done" and "together" are light words; a participle clause after a comma ("…, paid at the
 *   statutory rate") is a claim of its own in an answer (not in a reference answer); an idiom's
 *   noun ("every single year", "in trouble") is no topic word of the question.
 * - `heuristic-v85`: the default outdated-document note at an answer's end is taken off before
 *   judging in the judge itself, not only by `judgeTrace`, so a direct call with a trace's answer
 *   does not check the note as a claim.
 * - `heuristic-v86`: a capitalized month abbreviation standing alone ("two intakes, Feb and
 *   Sept") is read as that month, as a capitalized full name is; not "Jan" (a first name).
 * - `heuristic-v87`: with a reference answer, an `absent` claim that a reference claim verifies is
 *   verified by the chunk stating that reference claim (guarded; see `claimsThroughReference`);
 *   "automatically" and "guaranteed" must be found for a sentence to verify a claim.
 * - `heuristic-v88`: with a reference answer, a faithful answer resting on a chunk that states the
 *   reference, stating none of its claims and in words mostly not the reference's, is `off_topic`
 *   (another sentence of that chunk), not `partial`.
 * - `heuristic-v89`: after a refusal, a pointer to someone who may know that names them ("It'd be
 *   worth asking the People team") is advice, like one that names no one (v63): no claim.
 * - `heuristic-v90`: after a refusal, a pointer that slips in a figure the question did not give
 *   ("Ask the People team, they usually allow up to 5 days") is checked as a claim.
 * - `heuristic-v91`: more refusal wordings that say whose sources they are ("There isn't a policy on pet insurance that I can see", "The policies I can see don't cover that", "Nothing in the documents I have covers …", "That isn't something the documents address", "The handbook is quiet on that one"; `isRefusal`).
 * - `heuristic-v92`: chat wording from the eleventh fresh label file: "the 19th" (after "the", an
 *   ordinal day alone or "of <month>") is a date agreeing with "19 December"; "a grand", "2 grand"
 *   are thousands of pounds; "nope", "yep", "Afraid not", "on this one" state nothing to look for;
 *   a claim about every case verified by a sentence with its neighbours is read against all of them.
 * - `heuristic-v93`: with a reference answer, a reference claim of under three content words ("It
 *   needs sign-off", "Yes, you can keep it") makes the chunk stating it `answers` only when the
 *   question's words found that chunk related ({@link SPECIFIC_REFERENCE_CLAIM_STEMS}).
 * - `heuristic-v94`: a day of the week the asker named outside the clause that asks ("off sick since
 *   Monday") is their calendar: a claim restating it ("…, which for you is next Monday, …") need not
 *   find it in a sentence; a day the asking clause names ("a free lunch on Fridays?") must be found.
 * - `heuristic-v95`: bare figures joined by + or − into a result with a unit ("50 - 15 = 35 miles")
 *   are of that unit, in answers and reference answers alike.
 * - `heuristic-v96`: "a hundred", "a thousand", and the British "and" after hundreds or thousands
 *   ("a hundred and twenty quid" is £120; "one hundred and fifty pounds" was read as 100 and £50).
 * - `heuristic-v97`: "people", "staff", "workers" are a word class, found where a sentence names
 *   employees, staff, workers or colleagues (`heuristic-word-classes.ts`).
 * - `heuristic-v98`: a fourth list of refusal wordings ("I've had a look and can't see anything about that", "Nothing comes up for that", "That doesn't seem to be covered anywhere", "It doesn't say in the handbook", "I don't see a policy for that", "No policy on that that I could find", "That isn't in anything I've got", "There aren't any rules about that in the handbook"), and "There's nothing in the handbook that stops you" is an answer; `isRefusal`.
 * - `heuristic-v99`: more pointers after a refusal are asides ("Might be worth dropping HR a line", "Give the Service Desk a shout", "HR are best placed to answer that", "That's one for the People team", "Probably one for your manager"; `isRefusalAside`).
 * - `heuristic-v100`: a question word the term-coverage gate reads as generic ("stuff", "loads",
 *   "gone", "honestly") weighs in the question's topic as a word the evidence holds, not double
 *   where no passage has it (`readQuestion`): a long casual question's fillers had left the chunk
 *   its answer quotes "unrelated".
 * - `heuristic-v101`: a question typed without its "?" after one typed with it ("…how many
 *   characters?? and can i use the same one as my gmail") is a part of its own (`questionParts`).
 * - `heuristic-v102`: a redaction placeholder in the question ("…call me on [phone:c2a8283c]") is
 *   taken out before the question is read (`withoutRedactionPlaceholders`): its token was a topic
 *   word no passage holds, weighing double, so the live judge, which reads redacted questions, called
 *   a correct answer `off_topic` whenever the token began with a letter.
 * - `heuristic-v103`: a sentence of the question that gives a redacted personal detail and asks
 *   nothing ("call me on [phone:…]", "my email is [email:…].") is left out of what the question
 *   asks (`withoutPersonalDetails`): its other words ("call", "email") had made correct answers
 *   `off_topic` live.
 * - `heuristic-v104`: a fifth list of refusal wordings ("I don't have contact details for Payroll", "I've got nothing on that", "Nothing on sabbaticals in what I can see", "I can't pull up another employee's payslip", "Can't help with that one", "I'm not sure the handbook covers …", "… don't come up in the policies I can see") and pointers after a refusal ("The People team can contact him for you", "Your manager should have the dates", "individual pay is confidential", "you'd need to ask Payroll", a contact in parentheses); `isRefusal`, `isRefusalAside`. "Well done!" and a bare "I'm sorry" are social remarks.
 * - `heuristic-v105`: an answer typed in lower case is split into its sentences at ". " before a
 *   lower-case word, as one typed with capitals is (`splitTypedSentences`; a casual answer was one
 *   long claim that no single sentence of the evidence holds); "one" standing for a thing already
 *   named ("your normal one", "a new one") is no word to find; "must not exceed 48 hours" is an
 *   upper bound, not a negation of what precedes it; "decline to comment" negates "comment"; and
 *   clipped words ("comms", "stats", "quid", "docs", "info") are read as the words they stand for.
 * - `heuristic-v106`: with a reference answer, a sentence that the claim rules do not verify a
 *   reference claim by "states most of" it only with half of the claim's words, unless it holds the
 *   claim's very figure (`MOST_OF_REFERENCE_CLAIM`, `sameFigure`): figures whose ranges only meet
 *   ("at least two working days", "15 working days") had let a quarter of the words do, and such a
 *   chunk `answers`, so right refusals were over-refusals.
 * - `heuristic-v107`: a prose claim may state several rows of one table, each figure (with the
 *   figures after it) resting on the row its words name (`rowsVerify`); a concession after a comma
 *   ("…, even on a business journey") and "neither do X" are no statement or negation of their own;
 *   a condition written without its comma negates only itself; a negated lead-in and its list are
 *   one segment; one shared word does not align a segment of three or more words; "won't … until"
 *   reaches twelve words; "only when X" contradicts "whether or not X"; social remarks with an
 *   interjection or an adverb ("ugh, sorry!", "I'm so sorry about…") and "whatever" state nothing.
 * - `heuristic-v108`: a figure the question gave, restated in a claim as the asker's situation
 *   ("at 8 months you don't meet that yet", "your £80 gift", "If you put in 6%, …"), needs no
 *   sentence (`situatedFigure`); a comparison a claim makes between two of its figures ("£80 is
 *   over the £50 you can give without approval") is checked as arithmetic: when it holds, the bound
 *   agrees as itself or as the number it names ("up to £50"), and when it does not ("£80 is under
 *   the £50 limit") the claim is contradicted (`claimedComparisons`).
 * - `heuristic-v109`: the pronoun "one" in a negated condition ("Use the app on your company phone
 *   or, if you do not have one, on your personal phone") negates the noun phrase it stands for, so
 *   "if you don't have a company phone, use your personal phone" states that condition instead of
 *   meeting "on your company phone" as its opposite (`negatedAntecedents`).
 * - `heuristic-v110`: a claim's figure stated in the past tense ("it was £20 until 30 September
 *   2025", "it used to be 16 weeks") may rest on a figure the evidence gives as no longer in force
 *   ("the previous allowance of £20 per month, which applied until 30 September 2025"), as one
 *   called "old" or "previous" already could (`statedInPast`).
 * - `heuristic-v111`: a word the evidence (or the answer) writes only as the head of a two-word
 *   term WordNet lists as a noun of its own, whose first word the question does not use, does not
 *   hold the question's word: "holiday" asked, "bank holiday" written; "days" asked, "working
 *   days" written (`heldOnlyInTerm`, in the context verdicts' and answer relevance's coverage).
 *   The first word of such a term still holds its own ("Christmas" in "Christmas Day").
 * - `heuristic-v112`: short everyday questions (the seventeenth label file): answer relevance
 *   gives a heading's word no credit when the heading writes it only inside such a term ("Bank
 *   Holidays" for "holiday"), as the context verdicts already did; "how many days / weeks / hours…"
 *   asks for a number of those units, which a date, a clock time or a day of the month cannot be
 *   (`timeCount`, `heuristic-asked.ts`; "how long" still takes a deadline); "whens" is read
 *   "when's" (`src/text/casual.ts`).
 * - `heuristic-v113`: the context verdicts read a two-word phrase that is the question's whole
 *   topic as answer relevance has since v67 (`halfOfPhrase`, now in `heuristic-context.ts`): a
 *   sentence holding one of its words and neither the other nor a synonym of it speaks of another
 *   thing, so its chunk is at most `related` ("staff" of "staff discount?" in a fire-training rule).
 * - `heuristic-v114`: arithmetic over the whole answer (`AnswerWorking` in `heuristic-arithmetic.ts`):
 *   a figure one sentence works out is an operand of the next ("50 miles each way … so £22.50 each
 *   way"), up to three steps; its words of adding, taking away and dividing count wherever they
 *   stand; multiples ("2 times your hourly rate", "double time"), quotients ("£29,250 / 1,950"),
 *   journeys doubled ("each way", "round trip") and rates per unit ("one extra day for each completed
 *   year") are worked; "comes to", "makes", "gives you" state a worked result; the asker's figure a
 *   result of the same claim is worked from is not contradicted by another figure of its kind. A
 *   limit named before its figure ("the maximum is 30", "capped at", "tops out at", "limited to") is
 *   a bound, and a limit with no words of its own is the sentence's one limit of that direction; a
 *   unitless limit agrees with the evidence's equal limit ("up to 30 max"). A negation inside a
 *   condition ("if you can't you get…", "where that isn't possible you may…") ends at the main
 *   clause's subject, and "where" opens a condition.
 * - `heuristic-v115`: a condition after its main clause, behind a comma ("…, as long as …", "…,
 *   provided (that) …"), is a claim of its own in an answer (`CONDITION_BREAK` in `claims.ts`), so a
 *   limit and its approval stated in sentences apart are each checked against their own sentence.
 * - `heuristic-v116`: the personal-data rule (`src/text/personal-data-request.ts`, shared with the
 *   offline answerer) reads no day, month or holiday as a person's name: "her 20 week scan is this
 *   Thursday at 2pm" asked for no one's data, so a refusal to it was credited as a correct refusal.
 * - `heuristic-v117`: the personal-data rule reads another person's health or pay asked in everyday
 *   words ("what was wrong with him?", "why was she off?", "whats Dan Foster in sales on?").
 * - `heuristic-v118`: sympathy that is a whole clause ("sorry, that's rough", "that must be
 *   stressful") and a hedged verdict on the asker's premise standing alone ("Not quite: …",
 *   "Partly.") are no claims (`isSocialRemark` in `claims.ts`).
 * - `heuristic-v119`: a refusal that names what it could not find ("I can't find anything on
 *   suppliers paying for travel or hotels"), in three or more topic words sharing one with the
 *   question, makes the chunk whose sentence covers that best `answers` (at the `answers` bar),
 *   so the refusal is an over-refusal; a refusal giving its reason ("pay is confidential") names
 *   nothing (`refusalNamedContexts` in `heuristic-refusal-topic.ts`).
 * - `heuristic-v120`: the personal-data rule reads another person's pay asked with their name in
 *   lower case ("what does sarah in finance earn", "how much does tom make"; shared with the
 *   offline answerer's `local-extractive-v29`).
 * - `heuristic-v121`: the personal-data rule reads more of another person's data asked with their
 *   name in lower case, in frames only a person fits ("is dave on a pip", "what rating did priya
 *   get", "where does tom live", "what's sarah's salary"; the offline answerer's
 *   `local-extractive-v30`).
 * - `heuristic-v122`: questions and claims read with family words and "self cert" written out
 *   ("my nan", "gran", "grandad" as "grandparent"; `expandCasual`, shared with retrieval, the gate
 *   and the offline answerer's `local-extractive-v31`).
 * - `heuristic-v123`: everyday nouns match the documents' names for them as synonyms ("food" /
 *   "meal", "funeral" / "bereavement", "bike" / "bicycle", a pay "rise" / "increase":
 *   `EVERYDAY_NAMES`), "kick in", "hi-vis" written out, and "daytime" read as a time word (shared
 *   with retrieval, the gate and the offline answerer's `local-extractive-v34`).
 * - `heuristic-v124`: a "funeral" also matches "dies" / "died" (a close family member dies), beside
 *   "bereavement" and "death" (`EVERYDAY_NAMES`; the offline answerer's `local-extractive-v36`).
 * - `heuristic-v125`: with a reference answer, the paraphrase model (`heuristic-paraphrase.ts`, a
 *   logistic model fitted on hand labels by `npm run bench:paraphrase`) reads an answer's absent
 *   claims, none contradicted, as the user's words for what the reference's chunk states.
 * - `heuristic-v126`: reference recall reads the answer's WordNet synonyms of a reference claim's
 *   words ("cycle" for "bicycle"), as the claim rules do against the evidence; "a working day",
 *   "you have a month" and a lower-case month alone ("each september") are read as figures.
 * - `heuristic-v127`: an acronym in brackets ("keeping in touch (KIT) days") and a list of
 *   examples inside a clause (", such as dismissal or demotion,") no longer cut a sentence's
 *   negation off; "8 or more working days" keeps its unit.
 * - `heuristic-v128`: the paraphrase model refitted on 18 development label files (four new ones
 *   written blind to the judge), its threshold 0.75 (was 0.8 on 14 files), both chosen by
 *   `bench:paraphrase`'s cross-validation; no rule changed.
 */
export const HEURISTIC_JUDGE_VERSION = 'heuristic-v128';

export interface HeuristicFaithfulnessJudgeOptions {
  /**
   * A sentence encoder (e.g. `loadSentenceEncoder()`): a chunk with a sentence close in meaning to
   * the question answers it where the words differ (see `heuristic-encoder.ts`); claims are judged
   * by the word rules alone. The judge version records it (`heuristic-v128+encoder-v2`).
   * [encoder=none: the lexical judge]
   */
  encoder?: SentenceEncoder;
  /** Whether absent claims count as hallucinations. [policy={ absentIsHallucination: true }] */
  policy?: Partial<FaithfulnessPolicy>;
  /** The app's refusal sentence, recognised besides common paraphrases. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
  /**
   * With a reference answer only: the fitted model that reads an answer's absent claims as a
   * paraphrase of the reference (see `heuristic-paraphrase.ts`); `null` turns it off. Fit your own
   * on your own labels with `npm run bench:paraphrase -- --labels <files>`.
   * [paraphraseModel=DEFAULT_PARAPHRASE_MODEL]
   */
  paraphraseModel?: ParaphraseModel | null;
  /**
   * Called with the paraphrase model's features for every answer the model could act on (with a
   * reference, grounded in a retrieved chunk; see `paraphraseFeatures`), whether or not a model is
   * set: what `npm run bench:paraphrase` fits on.
   */
  onParaphraseFeatures?: (features: readonly number[]) => void;
}

/**
 * The offline faithfulness judge: no model, deterministic, fast. It splits the answer into atomic
 * claims and checks each against the evidence sentence that matches it best: content words
 * (stemmed, or a WordNet synonym), names, numbers, amounts, dates, ranges ("under £1,000") and negations. See
 * METHODOLOGY.md for what it can and cannot detect.
 *
 * @example
 * const judge = createHeuristicFaithfulnessJudge();
 * const judgment = await judge.judge({ question, evidence: evidenceFromTrace(trace), answer: trace.answer });
 * if (judgment.status === 'ok') console.log(judgment.claims, judgment.hallucinated);
 */
export function createHeuristicFaithfulnessJudge(options: HeuristicFaithfulnessJudgeOptions = {}): FaithfulnessJudge {
  const policy = resolvePolicy(options.policy);
  const refusal = options.refusalSentence ?? REFUSAL_SENTENCE;
  if (typeof refusal !== 'string' || refusal.trim() === '') {
    throw new InvalidInputError(`option refusalSentence ${JSON.stringify(options.refusalSentence)} is invalid: use the non-empty refusal sentence your app answers with`, { code: 'invalid_option' });
  }
  const encoder = options.encoder;
  if (encoder !== undefined && typeof encoder?.embed !== 'function') {
    throw new InvalidInputError('option encoder is invalid: use an object with embed(texts) => Promise<Float32Array[]>, e.g. loadSentenceEncoder()', { code: 'invalid_option' });
  }
  const paraphraseModel = options.paraphraseModel === undefined ? DEFAULT_PARAPHRASE_MODEL : options.paraphraseModel;
  if (paraphraseModel !== null && (typeof paraphraseModel !== 'object' || !validParaphraseModel(paraphraseModel))) {
    throw new InvalidInputError(`option paraphraseModel is invalid: use null or { features, mean, scale, weights, bias, threshold } with one finite number per feature (${PARAPHRASE_FEATURES.join(', ')}), as npm run bench:paraphrase prints`, { code: 'invalid_option' });
  }
  const info: JudgeInfo = Object.freeze({ kind: 'heuristic', model: 'heuristic', promptVersion: (encoder ? withEncoderVersion(HEURISTIC_JUDGE_VERSION) : HEURISTIC_JUDGE_VERSION) + paraphraseVersionSuffix(paraphraseModel) });

  return {
    info,
    async judge(given: FaithfulnessInput): Promise<FaithfulnessJudgment> {
      const started = performance.now();
      // The pipeline's default outdated-document note at the answer's end is advice, no claim (v85):
      // judgeTrace takes it off, and so does a direct call with a trace's answer.
      const input = { ...given, answer: answerForJudging({ answer: given.answer }) };
      try {
        const { units, passages } = buildUnits(input.evidence);
        // Retrieved chunks, not reference passages: what context verdicts and section subjects read.
        const chunkIds = new Set(input.evidence.filter((passage) => passage.kind === 'chunk').map((passage) => passage.id));
        const chunkUnits = units.filter((unit) => chunkIds.has(unit.passageId));
        // Read with chat-box spellings written out ("hols" as "holidays", "mgr" as "manager"), as
        // retrieval and its gate read it (v41); names and personal data are read from the question as typed.
        // An acronym the evidence does not write, read as the words the evidence spells it out with, as retrieval reads it (v66).
        // A redaction placeholder ("call me on [phone:c2a8283c]") stands for someone's value, not for
        // what is asked: its token is no topic word (v102), and a sentence that only gives such a
        // detail says who asks, not what (v103). Personal data is still read from the question as typed.
        const asked = withoutPersonalDetails(input.question);
        const question = withAcronymsSpelledOut(expandCasual(asked), chunkUnits);
        const reading = readQuestion(question, chunkUnits);
        // Days of the week the asker named only outside the clause that asks: their calendar (v94).
        const askersDays = askersWeekdays(question);
        const refused = isRefusal(input.answer, refusal);
        const split = splitAnswer(input.answer, { refusalSentence: refusal });
        let claims: JudgedClaim[] = [];
        const analyses = new Map<string, ReturnType<typeof analyze>>();
        // The answer's working (v114): a figure one sentence works out is an operand of the next.
        const read = split.claims.map((text) => ({ text, claim: analyzeClaim(text) }));
        const working: AnswerWorking = { text: input.answer, question, figures: read.flatMap(({ claim }) => claim.quantities) };
        for (const { text, claim } of read) {
          if (statesNothing(claim)) {
            // Nothing to check ("Yes.", "No.", "Sure!", "Probably yes."), unless a letter code the evidence writes ("F.E.A.R."),
            // or a bare yes/no to a question about two things at once, which the evidence settles (v40).
            const code = split.claims.length === 1 ? (judgeLetterCode(text, units, reading.analysis) ?? judgeBareYesNo(text, question, units, reading.analysis)) : null;
            if (code !== null) claims.push(code);
            continue;
          }
          analyses.set(text, claim);
          claims.push(judgeClaim(text, claim, units, reading.analysis, { askersDays, answer: working }));
        }
        // A figure slipped into a pointer beside a refusal ("Ask the People team, they usually allow up
        // to 5 days") is a claim (v90); the asker's own figure is not ("your own 3%").
        if (refused) {
          for (const aside of split.asides) {
            const analysis = analyzeClaim(aside);
            if (!slipsInFigure(analysis, reading.analysis)) continue;
            analyses.set(aside, analysis);
            claims.push(judgeClaim(aside, analysis, units, reading.analysis, { askersDays, answer: working }));
          }
        }
        claims.push(...judgeCitations(split.citations, passages));
        const reference = input.reference ? referenceClaims(input.reference, input.answer, reading.analysis.stemSet) : null;
        // The chunks' own sentences, without the joined lead-in-and-list units (whose many words would cover any question).
        const proseUnits = chunkUnits.filter((unit) => !unit.list);
        let contexts = judgeContexts(reading, input.evidence, proseUnits);
        // Meaning where words differ: chunks worded unlike the question (encoder-v2: contexts only).
        if (encoder) contexts = await refineContextsWithEncoder(encoder, asked, contexts, units);
        // A chunk that states the reference answer holds what the question asks (see groundedContexts).
        const grounded = input.reference ? groundedReferenceClaims(input.reference, chunkUnits, reading.analysis, refusal) : [];
        const referenceChunks = groundsByChunk(grounded);
        // Chunks the question's words already found related, before the reference's grounding.
        const onTopic = new Set(contexts.filter((context) => context.verdict !== 'unrelated').map((context) => context.chunkId));
        if (!refused && input.reference) claims = claimsThroughReference(claims, analyses, input.reference, input.answer, grounded, (ground) => ground.verified || onTopic.has(ground.chunkId!), reading.analysis);
        // A reference claim of under three content words ("It needs sign-off", "Yes, you can keep it",
        // "5 of your 7 days") is found in sentences about anything: it marks a chunk as answering only
        // when the question's own words found that chunk related (v93).
        contexts = groundedContexts(contexts, groundsByChunk(grounded.filter((ground) => ground.chunkId !== null && (onTopic.has(ground.chunkId) || ground.contentWords >= SPECIFIC_REFERENCE_CLAIM_STEMS))));
        const sufficient = contexts.some((context) => context.verdict === 'answers');
        // After a refusal, a sentence no source supports that states no figure, name, address or
        // number ("You'd normally just book annual leave for it", "Some employers do offer them") is
        // advice beside the refusal, like a pointer to someone who may know: no claim (v63). A
        // figure or a name is a fact the refusal slips in, and still makes it `hallucinated`.
        if (refused) claims = claims.filter((claim) => !(claim.verdict === 'absent' && analyses.has(claim.text) && isAdvice(claim.text, analyses.get(claim.text)!)));
        // With a reference: absent claims the paraphrase model reads as the user's words for what the reference's chunk states (v125).
        if (!refused && reference !== null && (paraphraseModel !== null || options.onParaphraseFeatures)) claims = claimsAsParaphrase(paraphraseModel, claims, input, reference, grounded, options.onParaphraseFeatures);
        let relevance: AnswerRelevance = refused ? 'refusal' : answerRelevance(reading, input.answer, claims, units, sufficient);
        // The answer gives another section's figure (v15): "Claims approved … are paid with that month's salary" for pay day.
        const retrieved = passages.filter((passage) => chunkIds.has(passage.id));
        if ((relevance === 'answers' || relevance === 'partial') && (reading.kind === 'quantity' || reading.kind === 'time')) {
          const sections = new Map(retrieved.map((passage) => [passage.id, passage.section]));
          if (aboutAnotherSection(reading.analysis.stemSet, claims.filter((claim) => analyses.has(claim.text)), sections)) relevance = 'off_topic';
        }
        // Another kind of the asked thing (v19): "the meal limit" for "the hotel limit".
        if (relevance === 'answers' || relevance === 'partial') {
          const heading = (passage: PassageInfo) => new Set([...passage.section, ...passage.titleStems]);
          const resting = new Set(claims.map((claim) => claim.evidenceChunkId));
          if (swappedModifier(question, input.answer, retrieved.map(heading), retrieved.filter((passage) => resting.has(passage.id)).map(heading))) relevance = 'off_topic';
        }
        // A chunk stating the rule for the question's own figure answers it too (v11), whatever words the question used.
        contexts = figureAnchoredContexts(reading, contexts, proseUnits);
        // A refusal that names what it looked for, which a chunk holds, is an over-refusal (v119).
        if (refused) contexts = refusalNamedContexts(input.answer, refusal, reading, contexts, proseUnits);
        // A faithful answer that only partly addresses the question and states none of the reference
        // answer's claims is about something else. (A wrong answer states none of them either: it
        // misstates them, and stays an answer.)
        const allVerified = claims.length > 0 && claims.every((claim) => claim.verdict === 'verified');
        if (relevance === 'partial' && allVerified && reference !== null && reference.length > 0 && !reference.some((claim) => claim.stated)) relevance = 'off_topic';
        if (!refused && input.reference && referenceChunks.size > 0) relevance = relevanceAgainstReference(relevance, claims, referenceChunks, reference, input.reference, reading.analysis);
        const personalData = input.personalData ?? asksForPersonalData(input.question);
        // An answer handing over what a personal-data question asks for answers it (v21), however few of its words it repeats.
        if (personalData && !refused && relevance !== 'answers' && handsOverAskedData(input.question, input.answer, reading.analysis)) relevance = 'answers';
        const derived = deriveFaithfulness(
          {
            claims,
            contexts,
            refused,
            answerRelevance: relevance,
            personalData,
            referenceClaims: reference,
          },
          policy,
        );
        return {
          status: 'ok',
          judge: info,
          ...derived,
          usage: { ...EMPTY_USAGE },
          costUsd: 0,
          durationMs: performance.now() - started,
        };
      } catch (error) {
        // A bug here must show up as a judge error, never as a pass or a zero.
        return {
          status: 'error',
          judge: info,
          error: `heuristic judge failed: ${errorMessage(error)}`,
          rawReply: null,
          attempts: 1,
          authError: false,
          usage: { ...EMPTY_USAGE },
          costUsd: 0,
          durationMs: performance.now() - started,
        };
      }
    },
  };
}

/**
 * The answer's absent claims as verified paraphrase (v125), when the paraphrase model gives at least
 * its threshold and a retrieved chunk states a reference claim: each rests on the chunk stating the
 * reference claim that shares most of its words. Otherwise the claims as they were.
 */
function claimsAsParaphrase(
  model: ParaphraseModel | null,
  claims: JudgedClaim[],
  input: FaithfulnessInput,
  reference: ReferenceClaim[],
  grounded: readonly GroundedReferenceClaim[],
  onFeatures: ((features: readonly number[]) => void) | undefined,
): JudgedClaim[] {
  const grounds = grounded.filter((ground) => ground.chunkId !== null);
  if (grounds.length === 0) return claims;
  const features = paraphraseFeatures({ question: input.question, evidence: input.evidence.map((passage) => passage.text), reference: input.reference!, claims, referenceClaims: reference });
  if (features === null) return claims;
  onFeatures?.(features);
  if (model === null) return claims;
  const probability = paraphraseProbability(model, features);
  if (probability < model.threshold) return claims;
  const groundStems = grounds.map((ground) => analyzeClaim(ground.text).stemSet);
  return claims.map((claim) => {
    if (claim.verdict !== 'absent') return claim;
    const stems = analyzeClaim(claim.text).stems;
    let best = 0;
    let shared = -1;
    groundStems.forEach((set, index) => {
      const count = stems.filter((stem) => set.has(stem)).length;
      if (count > shared) [best, shared] = [index, count];
    });
    const ground = grounds[best]!;
    return { text: claim.text, verdict: 'verified', evidenceChunkId: ground.chunkId, note: `${PARAPHRASE_NOTE_PREFIX}${probability.toFixed(2)} ≥ ${model.threshold}): read as the reference answer's claim "${ground.text}", which ${ground.chunkId} states; was: ${claim.note}` };
  });
}

/** Words that point the asker to someone who may know (v89): "It'd be worth asking the People team", "check with IT". */
const POINTER = /\b(?:ask|asking|check with|checking with|speak to|speaking to|talk to|talking to|contact|contacting|get in touch|raise it with|reach out to)\b/i;

/** Whether a clause states a figure the question did not give: one that agrees with none of the question's (as figures are compared, `relate`). */
function slipsInFigure(clause: Analysis, question: Analysis): boolean {
  return clause.quantities.some(({ quantity }) => !question.quantities.some((asked) => relate(quantity, asked.quantity) === 'agree'));
}

/** A guess at the answer itself ("I think it is black tie"): a claim, however hedged. */
const GUESS = /\b(?:i (?:think|believe|guess|reckon|suspect)|i['’]d (?:guess|say|think))\b/i;

/**
 * Advice or a remark beside a refusal (v63): a sentence with no figure, name, address or phone
 * number ("You'd normally just book annual leave for it"), or (v89) one that points the asker to
 * someone who may know, whoever it names ("It'd be worth asking the People team"; still no figure,
 * address or phone number). Not a guess at the answer ("I think it is black tie") nor a sentence
 * about what was asked ("It is black tie": "it" stands for the question's topic), which are claims.
 */
function isAdvice(text: string, claim: Analysis): boolean {
  const sentence = text.trim().replace(/^(?:but|though|however|so|and|still)[,]?\s+/i, '');
  return !GUESS.test(sentence) && !PRONOUN_SUBJECT.test(sentence) && claim.quantities.length === 0 && (claim.keyStems.size === 0 || POINTER.test(sentence)) && identifiersOf(text).length === 0;
}

/**
 * A cited source must be one of the evidence passages (matched by title), with the same date. A
 * citation of a source the generator never saw is a fabricated claim; a wrong date contradicts.
 */
function judgeCitations(citations: readonly Citation[], passages: readonly PassageInfo[]): JudgedClaim[] {
  const judged: JudgedClaim[] = [];
  const seen = new Set<string>();
  for (const citation of citations) {
    const key = `${citation.title.toLowerCase()}|${citation.updated ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const text = `Cites "${citation.title}${citation.updated ? `, updated ${citation.updated}` : ''}"`;
    const sameTitle = passages.filter((passage) => passage.title !== null && passage.title.toLowerCase() === citation.title.toLowerCase());
    if (sameTitle.length === 0) {
      judged.push({ text, verdict: 'absent', evidenceChunkId: null, note: 'no evidence passage has this title' });
      continue;
    }
    if (citation.updated !== null && !sameTitle.some((passage) => passage.updated === null || passage.updated === citation.updated)) {
      judged.push({ text, verdict: 'contradicted', evidenceChunkId: sameTitle[0]!.id, note: `${sameTitle[0]!.id} was updated ${sameTitle[0]!.updated}` });
    }
  }
  return judged;
}

/**
 * The chunks that state the reference answer, as chunk id → note: for each reference claim, the
 * chunk whose sentence verifies it (the claim rules), or else the one sentence that states most of
 * it by the reference-recall measure (`statesReferenceClaim`). A contradicted claim grounds nothing.
 *
 * @example
 * referenceGrounds('Probation lasts 6 months.', chunkUnits, readQuestion(question, chunkUnits).analysis, REFUSAL_SENTENCE)
 * // Map { 'onboarding#probation-period' => 'states the reference answer\'s claim "Probation lasts 6 months."' }
 */
export function referenceGrounds(reference: string, chunkUnits: readonly EvidenceUnit[], question: Analysis, refusal: string): Map<string, string> {
  return groundsByChunk(groundedReferenceClaims(reference, chunkUnits, question, refusal));
}

/** Chunk id → note, for the first reference claim each chunk states. */
function groundsByChunk(grounded: readonly GroundedReferenceClaim[]): Map<string, string> {
  const grounds = new Map<string, string>();
  for (const ground of grounded) {
    if (ground.chunkId === null || grounds.has(ground.chunkId)) continue;
    grounds.set(ground.chunkId, ground.verified ? `states the reference answer's claim "${ground.text}"` : `a sentence states most of the reference answer's claim "${ground.text}"`);
  }
  return grounds;
}

/**
 * Content words a reference claim needs for the chunk stating it to count as answering the question
 * on that alone (v93); a shorter one counts only for a chunk the question's words found related.
 * Measured: at 3, eight refusal items of the eleventh fresh file right and none of the development
 * files wrong; at 5, one more correct answer's chunk lost (METHODOLOGY.md, changelog v93).
 */
export const SPECIFIC_REFERENCE_CLAIM_STEMS = 3;

/** A claim of the reference answer and the chunk whose sentence states it (`null`: none does). */
interface GroundedReferenceClaim {
  text: string;
  chunkId: string | null;
  /** Verified by the claim rules (else: the sentence stating most of it by the reference-recall measure). */
  verified: boolean;
  /** Its content words (stems), for {@link SPECIFIC_REFERENCE_CLAIM_STEMS}. */
  contentWords: number;
}

/**
 * Each claim of the reference answer that states something, in order, with the chunk that states
 * it or `null` (see {@link referenceGrounds}); none for a reference that is a refusal.
 */
function groundedReferenceClaims(reference: string, chunkUnits: readonly EvidenceUnit[], question: Analysis, refusal: string): GroundedReferenceClaim[] {
  const grounded: GroundedReferenceClaim[] = [];
  if (isRefusal(reference, refusal)) return grounded;
  for (const text of splitAnswer(reference, { refusalSentence: refusal, subjectClauses: false }).claims) {
    const claim = analyze(text);
    if (statesNothing(claim)) continue;
    const judged = judgeClaim(text, claim, chunkUnits, question);
    if (judged.verdict === 'verified' && judged.evidenceChunkId !== null) {
      grounded.push({ text, chunkId: judged.evidenceChunkId, verified: true, contentWords: claim.stems.length });
      continue;
    }
    if (judged.verdict === 'contradicted') {
      grounded.push({ text, chunkId: null, verified: false, contentWords: claim.stems.length });
      continue;
    }
    // A person's reference answer paraphrases its source more freely than an answer quotes it:
    // a sentence stating the claim as reference recall measures it (words and figures) holds it too.
    // Only the sentence that states most of it: a reference claim has one source.
    let best: { unit: EvidenceUnit; coverage: number } | null = null;
    for (const unit of chunkUnits) {
      const stated = statesReferenceClaim(claim, new Set([...unit.own, ...unit.heading]), unit.quantities);
      const pinned = stated.figures.some((entry) => unit.quantities.some((other) => sameFigure(entry.quantity, other.quantity)));
      if (stated.enough && (pinned || stated.coverage >= MOST_OF_REFERENCE_CLAIM) && (best === null || stated.coverage > best.coverage)) best = { unit, coverage: stated.coverage };
    }
    grounded.push({ text, chunkId: best?.unit.passageId ?? null, verified: false, contentWords: claim.stems.length });
  }
  return grounded;
}

/**
 * The share of a reference claim's content words a sentence must hold to state "most of" it when
 * the claim rules do not verify it there and none of its figures is the claim's own figure (v106):
 * half, as for a claim without figures. The reference-recall measure (`statesReferenceClaim`) asks
 * only a quarter of the words of a claim whose figures agree, and figures agree when their ranges
 * meet: "raise a request at least two working days beforehand" stated "three weeks is 15 working
 * days, within the limit of 20 working days abroad", so that chunk `answers`, and a right refusal
 * became an over-refusal. A sentence holding the very figure ("up to 20 working days in each
 * calendar year") still needs only the quarter.
 */
const MOST_OF_REFERENCE_CLAIM = 0.5;

/**
 * Claims verified through the reference answer (v87, offline evals): an `absent` claim that a claim
 * of the reference answer verifies, by the same claim rules, is verified by the retrieved chunk
 * that states that reference claim. A person wrote the reference from the sources in other words
 * than theirs, and an answer in the user's words is often closer to it than to the sources ("you
 * only change it if you think it's been compromised" for "you change them only if you think they
 * are compromised"). Guarded:
 * - only `absent` claims: a claim the sources contradict stays contradicted, and one the reference
 *   does not state (a fabricated detail) stays absent;
 * - not when the answer opens with yes and the reference with no, or the other way round;
 * - each claim of the reference is its own passage, so a claimed figure is never paired with
 *   another claim's date ("£30 in August" against "it rose to £30 from 1 October; the £20 rate
 *   applied until 30 September");
 * - the reference claim's chunk is one the claim rules verify it by, or one the question's own
 *   words found related (`usable`, from the caller): the reference-recall measure alone can ground
 *   a claim in a neighbouring section.
 */
function claimsThroughReference(
  claims: readonly JudgedClaim[],
  analyses: ReadonlyMap<string, Analysis>,
  reference: string,
  answer: string,
  referenceClaims: readonly GroundedReferenceClaim[],
  usable: (ground: GroundedReferenceClaim) => boolean,
  question: Analysis | null,
): JudgedClaim[] {
  if (!referenceClaims.some((ground) => ground.chunkId !== null && usable(ground)) || !claims.some((claim) => claim.verdict === 'absent')) return [...claims];
  // "Yes, …" where the reference says "No. …": the answer disagrees with it, whatever it says next.
  const answerSays = polarity(answer);
  const referenceSays = polarity(reference);
  if (answerSays !== null && referenceSays !== null && answerSays !== referenceSays) return [...claims];
  // Each claim of the reference a passage of its own: the claim rules name the one that verifies,
  // and a short passage pairs no figure with another claim's date.
  const { units } = buildUnits(referenceClaims.map((ground, index) => ({ id: `reference#${index}`, kind: 'reference' as const, text: ground.text, body: ground.text, title: null, section: null, updated: null })));
  return claims.map((claim) => {
    const analysis = analyses.get(claim.text);
    if (claim.verdict !== 'absent' || analysis === undefined) return claim;
    const judged = judgeClaim(claim.text, analysis, units, question);
    if (judged.verdict !== 'verified' || judged.evidenceChunkId === null) return claim;
    // The verifying reference claim must be stated by a retrieved chunk.
    const ground = referenceClaims[Number(judged.evidenceChunkId.slice('reference#'.length))]!;
    if (ground.chunkId === null || !usable(ground)) return claim;
    return { text: claim.text, verdict: 'verified', evidenceChunkId: ground.chunkId, note: `states the reference answer's claim "${ground.text}", which ${ground.chunkId} states` };
  });
}

/** An answer's or a reference's opening yes or no, or `null`. */
function polarity(text: string): 'yes' | 'no' | null {
  if (/^\W*(?:yes|yeah|yep|yup|sure|absolutely|definitely|of course|correct)\b/i.test(text)) return 'yes';
  if (/^\W*(?:no|nope|not really|unfortunately not|sadly not)\b/i.test(text)) return 'no';
  return null;
}

/**
 * The least share of an answer's own words (not the question's) the reference answer must hold
 * for an answer resting on a reference chunk, stating none of its claims, to be `partial` (v88).
 */
const OWN_WORDS_IN_REFERENCE = 0.5;

/**
 * The share of the claims' words, leaving out the question's, that the reference answer uses (as
 * written or in a close form). A true sentence of the reference's chunk that the reference leaves
 * out ("Store passwords in the company password manager" for the minimum password length) shares
 * few; a part of the reference in other words ("You can book it yourself without asking your
 * manager") shares most.
 */
function shareInReference(claims: readonly JudgedClaim[], reference: string, question: Analysis): number {
  const said = analyze(reference).stemSet;
  const stems = claims.flatMap((claim) => analyze(claim.text).stems.filter((stem) => !question.stemSet.has(stem)));
  return stems.length === 0 ? 1 : stems.filter((stem) => hasStem(said, stem)).length / stems.length;
}

/**
 * Answer relevance corrected by where the reference answer is stated (offline evals): an answer is
 * about what the question asks when its verified claims rest on a chunk that states the reference
 * answer. A faithful answer that rests only on other chunks and states none of the reference's
 * claims answers something else, however many of the question's words it shares ("claims are paid
 * with the month's salary" for "what day do we get paid?"): `off_topic`. One that rests on such a
 * chunk is at least a `partial` answer, however the lexical reading scored its words, unless (v88)
 * it states none of the reference's claims and most of its own words are not the reference's (a
 * true sentence of that chunk the reference leaves out: `off_topic`, unless the lexical reading
 * found it answers); one that also states every claim of the reference, or (v8) every claim of it
 * that gives a figure, answers the question.
 */
function relevanceAgainstReference(
  relevance: AnswerRelevance,
  claims: readonly JudgedClaim[],
  referenceChunks: ReadonlyMap<string, string>,
  reference: readonly { text: string; stated: boolean }[] | null,
  referenceText: string,
  question: Analysis,
): AnswerRelevance {
  const verified = claims.filter((claim) => claim.verdict === 'verified');
  const onReference = verified.some((claim) => claim.evidenceChunkId !== null && referenceChunks.has(claim.evidenceChunkId));
  const allVerified = claims.length > 0 && verified.length === claims.length;
  const statesNone = reference !== null && reference.length > 0 && !reference.some((claim) => claim.stated);
  if (allVerified && !onReference && statesNone) return 'off_topic';
  // Another sentence of the reference's chunk (v88): a faithful answer that states none of the
  // reference's claims, in words mostly not the reference's, rests on that chunk without answering.
  if (allVerified && statesNone && onReference && relevance !== 'answers' && shareInReference(claims, referenceText, question) < OWN_WORDS_IN_REFERENCE) return 'off_topic';
  if (!onReference || relevance === 'answers' || reference === null || reference.length === 0) return relevance;
  // It states the whole reference answer: whatever words the question used, it answers it.
  if (reference.every((claim) => claim.stated)) return 'answers';
  // It states every figure the reference gives (v8): what is left are details ("room only,
  // including VAT"), which make an answer no less an answer.
  const withFigures = reference.filter((claim) => analyze(claim.text).quantities.length > 0);
  if (withFigures.length > 0 && withFigures.every((claim) => claim.stated)) return 'answers';
  return relevance === 'off_topic' ? 'partial' : relevance;
}
