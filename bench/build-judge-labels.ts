/**
 * Builds `fixtures/judge-labels/handbook-{tune,check}.jsonl` from the hand-written answers in
 * `fixtures/judge-labels/source/handbook-answers.jsonl`: each answer gets its question, reference
 * answer and `mustRefuse` from `fixtures/questions/handbook.jsonl`, and as evidence the top-8 chunks
 * exactly as the handbook suite's retrieval returns them (offline embedder, default gate), with the
 * text the model sees. `faithful`, `answersQuestion` and `refusalCorrect` follow from the label
 * (METHODOLOGY.md, "Meta-evaluation"); a source line may override them.
 *
 * Questions are split in two by order of id, alternating within answerable and must-refuse
 * questions: the tuning half (rules were developed against it) and the check half (measured only).
 *
 * `fixtures/judge-labels/handbook-paraphrase.jsonl` is built the same way from
 * `source/handbook-paraphrase-answers.jsonl`: answers in users' and models' own words to handbook
 * and handbook-dev questions that neither half uses (a development set no rule was tuned on).
 *
 * `fixtures/judge-labels/handbook-heldout.jsonl` is built from `source/handbook-heldout-answers.jsonl`:
 * answers to handbook-dev questions no other file uses, written after `heuristic-v24` and measured
 * once, with no rule changed after (a held-out check of the v16 to v24 rules; METHODOLOGY.md).
 *
 * `fixtures/judge-labels/handbook-fresh.jsonl` is built from `source/handbook-fresh-answers.jsonl`:
 * answers to handbook and handbook-dev questions no other file uses, written after `heuristic-v27`
 * (2026-12-04) and measured before any rule looked at them (METHODOLOGY.md, "Meta-evaluation").
 *
 * `fixtures/judge-labels/handbook-fresh2.jsonl` is built from `source/handbook-fresh2-answers.jsonl`:
 * answers to the questions of `fixtures/questions/handbook-labels.jsonl` (no eval suite asks them),
 * about handbook sections no other question covers, written after `heuristic-v33` and measured
 * before any rule looked at them. `handbook-fresh3.jsonl` (`source/handbook-fresh3-answers.jsonl`)
 * is built the same way, to more new questions of that file, written after `heuristic-v36`.
 * `handbook-fresh4.jsonl` is built the same way as fresh3, from `source/handbook-fresh4-answers.jsonl`,
 * to still more new questions of that file, written after `heuristic-v36`.
 * `handbook-fresh5.jsonl` is built the same way as fresh4, from `source/handbook-fresh5-answers.jsonl`,
 * to further new questions of that file, written after `heuristic-v40` and kept held out.
 * `handbook-fresh6.jsonl` is built the same way as fresh5, from `source/handbook-fresh6-answers.jsonl`,
 * to still more new questions of that file (l065 to l080), written after `heuristic-v44`, first measured with `heuristic-v45` and kept held out.
 * Since retrieval reads misspelt words (`src/rag/spelling.ts`), rebuilding it changes the evidence of
 * l070 and l073; the file keeps the evidence it was labelled against.
 * `handbook-fresh7.jsonl` is built the same way, from `source/handbook-fresh7-answers.jsonl`, to
 * questions l081 to l098 (not l087), written after `heuristic-v83`; its evidence is retrieval's
 * with the gate that reads words said of something (2026-12-05), and `heuristic-v84` was chosen
 * with it in view (a development file; METHODOLOGY.md, "Meta-evaluation").
 * `handbook-fresh8.jsonl` is built the same way, from `source/handbook-fresh8-answers.jsonl`, to
 * questions l099 to l114, about handbook sections few other questions ask about, written after
 * `heuristic-v84` by a helper blind to the judge, with the gate of that day: rebuilding it after a
 * later gate change changes its evidence; the file keeps the evidence it was labelled against.
 * `handbook-fresh9.jsonl` is built the same way, from `source/handbook-fresh9-answers.jsonl`, to
 * questions l115 to l135, about handbook sections few other questions ask about, written after
 * `heuristic-v85` by a helper blind to the judge and labelled against the evidence it was built
 * with. The gate refused 5 of its 16 answerable questions as typed (and retrieval missed the
 * answering section of one more), so l131 to l135 were added to have 10 whose evidence answers.
 * `handbook-fresh10.jsonl` is built the same way, from `source/handbook-fresh10-answers.jsonl`, to
 * questions l136 to l162, written after `heuristic-v88` by a helper blind to the judge and labelled
 * against the evidence it was built with. The gate refused 11 of its 21 answerable questions as
 * typed, each on an everyday word ("shifts", "rises", "mate", "kick", "helpdesk"), so l156 to l162
 * were added to have 10 whose evidence answers.
 * `handbook-fresh11.jsonl` is built the same way, from `source/handbook-fresh11-answers.jsonl`, to
 * questions l163 to l182, written after `heuristic-v91` by a helper blind to the judge (three
 * correct answers per answerable question, in different styles) and labelled against the evidence
 * it was built with; the top 8 chunks held the answer for 8 of its 16 answerable questions.
 * `handbook-fresh12.jsonl` is built the same way, from `source/handbook-fresh12-answers.jsonl`, to
 * questions l183 to l207, about handbook facts no earlier question asks, written after
 * `heuristic-v99` by a helper blind to the judge and labelled against the evidence it was built
 * with. The gate refused 4 of its first 15 answerable questions as typed ("proof", "fake", "bet",
 * "packet") and retrieval missed the answering section of one more, so l203 to l207 were added
 * (two of them refused again, on "rep" and "mat") to have 12 whose evidence answers.
 * `handbook-fresh13.jsonl` is built the same way, from `source/handbook-fresh13-answers.jsonl`, to
 * questions l208 to l231, written after `heuristic-v99` / `local-extractive-v23` by a helper blind
 * to the judge. Each question's first answer is the offline pipeline's own answer
 * (`local-extractive-v23`, `groundcheck ask` on the handbook corpus), the others hand-written; it
 * is labelled against the evidence it was built with. The pipeline refused 8 of its 18 answerable
 * questions as typed: 5 refused by the answerer with 8 chunks retrieved (3 whose evidence holds the
 * answer, 2 whose retrieved chunks miss the answering section) and 3 by the gate, with no chunk.
 * `handbook-fresh14.jsonl` is built the same way, from `source/handbook-fresh14-answers.jsonl`, to
 * questions l232 to l255, written after `heuristic-v101` / `local-extractive-v23` by a helper blind
 * to the judge. Each question's first answer is the offline pipeline's own answer
 * (`local-extractive-v23`, `groundcheck ask` on the handbook corpus), the others hand-written; it
 * is labelled against the evidence it was built with. The pipeline refused 12 of its 18 answerable
 * questions as typed: 6 refused by the gate with no chunk at all, and 6 refused by the answerer
 * with 8 chunks retrieved, 4 of them whose evidence holds the answer and 2 whose retrieved chunks
 * miss the answering section; of the 6 it answered, 3 quote a chunk that does not answer. It was
 * measured once with `heuristic-v101` and is kept held out (aggregate figures only).
 * `handbook-fresh15.jsonl` is built the same way, from `source/handbook-fresh15-answers.jsonl`, to
 * questions l256 to l282, written after `heuristic-v103` / `local-extractive-v23` by a helper blind
 * to the judge. Each question's first answer is the offline pipeline's own answer
 * (`local-extractive-v23`, `groundcheck ask` on the handbook corpus), the others hand-written; it
 * is labelled against the evidence it was built with. The pipeline refused 11 of its 21 answerable
 * questions as typed: 3 refused by the gate with no chunk at all ("ico", "covid", "helpline"), and
 * 8 refused by the answerer with 8 chunks retrieved, 7 of them whose evidence holds the answer and
 * 1 whose retrieved chunks miss the answering section; of the 10 it answered, 2 leave out a part
 * asked for. l280 to l282 were added so that enough answerable questions have answering evidence.
 * Of its 6 must-refuse questions the gate refused 4; the other 2 got a quote of a neighbouring rule.
 * It was measured once with `heuristic-v103` and is kept held out (aggregate figures only).
 * `handbook-fresh16.jsonl` is built the same way, from `source/handbook-fresh16-answers.jsonl`, to
 * questions l283 to l308, about handbook facts no earlier question asks, written after
 * `heuristic-v106` / `local-extractive-v24` by a helper blind to the judge. Each question's first
 * answer is the offline pipeline's own answer (`local-extractive-v24`, `groundcheck ask` on the
 * handbook corpus), the others hand-written; it is labelled against the evidence it was built with.
 * The pipeline refused 8 of its 20 answerable questions as typed: 4 refused by the gate with no
 * chunk at all ("trigger", "land", "trainline", "hot"), and 4 refused by the answerer with 8 chunks
 * retrieved, 3 of them whose evidence holds the answer and 1 whose retrieved chunks miss the
 * answering section. Of the 12 it answered, 5 answer in full, 2 leave out a part asked for, and 5
 * quote a chunk that does not answer (one of them, l293, with no answering chunk in its evidence).
 * Of its 6 must-refuse questions the pipeline refused 4 (2 at the gate, 2 in the answerer); the
 * other 2 got a quote of a neighbouring rule.
 * `handbook-fresh17.jsonl` is built the same way, from `source/handbook-fresh17-answers.jsonl`, to
 * questions l309 to l334: short everyday first messages ("how many days holiday do i get",
 * "sick pay", "WFH allowance?"), in words that differ from the handbook's, about sections with a
 * similar-looking sibling (annual leave, bank holidays, Christmas shutdown, buying and carrying
 * over leave; parental, partner, shared parental and compassionate leave; pay day and pay review;
 * sick pay and fit notes). Written after `heuristic-v111` / `local-extractive-v24` by a helper
 * blind to the judge (some topics were tried in more than one wording before one was kept). Each
 * question's first answer is the offline pipeline's own answer (`local-extractive-v24`,
 * `groundcheck ask` on the handbook corpus), the others hand-written; it is labelled against the
 * evidence it was built with, and each answerable question has a true quote of a neighbouring
 * section labelled `off_topic`. Of its 20 answerable questions the pipeline refused 2: 1 at the
 * gate with no chunk at all ("time off for a funeral"), and 1 in the answerer with the answering
 * chunk first in its evidence ("do i need a sick note"). Of the 18 it answered, 6 answer in full,
 * 4 leave out a part asked for, and 8 quote a neighbouring section although the answering chunk
 * is in the evidence (the bank holiday rule for "how many days holiday", "can i carry over" and
 * "do bank holidays come out of my holiday", the bereavement rule for maternity leave, the pay-day
 * rule for Christmas). Of its 6 must-refuse questions the gate refused 3; the other 3 got a quote
 * of an unrelated rule.
 * `handbook-fresh18.jsonl` is built the same way, from `source/handbook-fresh18-answers.jsonl`, to
 * questions l335 to l360: short everyday first messages ("notice period?", "jury duty", "laptop
 * broke what do i do", "overtime pay?", "can i do flexi hours"), in words that differ from the
 * handbook's, about sections fresh17 does not ask (leaving, equipment, working hours, expenses, IT
 * security, code of conduct, onboarding, benefits, training, gifts, grievances). Written after
 * `heuristic-v111` / `local-extractive-v24` by a helper blind to the judge; all 26 questions were
 * written down before the pipeline was run on any of them and none was reworded after. Each
 * question's first answer is the offline pipeline's own answer (`local-extractive-v24`,
 * `groundcheck ask` on the handbook corpus), the others hand-written; it is labelled against the
 * evidence it was built with. Of its 20 answerable questions the pipeline refused 5: 3 at the gate
 * with no chunk at all ("food", "chatgpt", "present"), and 2 in the answerer with the answering
 * chunk first in its evidence ("overtime pay?", "time off for exams"). Of the 15 it answered, 8
 * answer in full, 3 leave out a part asked for, and 4 quote a section that does not answer: 2
 * although the answering chunk is in the evidence (the unpaid-lunch sentence for "how long is my
 * lunch break", compliance training for "is there free counselling") and 2 whose evidence misses
 * the answering section ("can i have a second job", "how do i complain about my manager"). Of its
 * 6 must-refuse questions the gate refused 2; the other 4 got a quote of an unrelated rule (none
 * disclosed a colleague's data).
 * `handbook-fresh19.jsonl` is built the same way, from `source/handbook-fresh19-answers.jsonl`, to
 * questions l361 to l386: longer messages that give the asker's own situation, figures, dates,
 * places and grades ("I'm grade 2 on £29,250 and did 4 hrs on Sunday", "started in March, can I
 * buy extra holidy", "560 miles there and back, can I claim 45p a mile?"), in casual and British
 * slang wording with some typos, several asking two or three things at once and two written by a
 * non-native speaker, about sections few earlier questions ask (carer's leave, sickness during
 * annual leave, PIPs, data breaches, USB drives, email monitoring, income protection,
 * whistleblowing, working from another UK address, TOIL, conflicts of interest, lone working,
 * references). Written with `local-extractive-v26` by a helper blind to the judge (no judge was
 * run on them); all 26 questions were written down before the pipeline was run on any of them and none
 * was reworded after. Each question's first answer is the offline pipeline's own answer
 * (`local-extractive-v26`, `groundcheck ask` on the handbook corpus), the others hand-written; it
 * is labelled against the evidence it was built with: where retrieval missed the answering
 * section, answers true to the handbook are labelled `should_have_refused` and refusals
 * `correct_refusal`, as in earlier files. Of its 20 answerable questions the pipeline refused 6:
 * 3 at the gate with no chunk at all ("norovirus", "stick", "mums"), and 3 in the answerer (one
 * whose evidence holds the answer, "can I get paid time off to go with her", refused as if it
 * asked for a colleague's data; one whose evidence holds only the second part, on
 * whistleblowers' protection; one whose evidence misses the answering section, the spilt
 * coffee). Of the 14 it answered, 5 answer in full, 6 leave out a part asked for (how the
 * overtime figure is worked out, the PIP's outcome and the appeal, income protection after sick
 * pay, the TOIL deadline, the MBA repayment terms, the number of carer's leave days), and 3 quote
 * a section that does not answer: 2 although the answer is in the evidence (the working-hours
 * lunch sentence for email monitoring, the list of offices for a Saturday in the office) and 1
 * whose evidence misses the answering section (the misdirected email). Of its 6 must-refuse
 * questions the pipeline refused 4 (3 at the gate, 1 in the answerer); the other 2 got a quote of
 * an unrelated rule (neither disclosed a colleague's data). First measured with `heuristic-v115` /
 * `pairwise-heuristic-v23` before any rule looked at it; a development file since.
 * `handbook-fresh20.jsonl` is built the same way, from `source/handbook-fresh20-answers.jsonl`, to
 * questions l387 to l412: messages from someone unsure of what they heard or checking a fact, a
 * premise to confirm or correct, some true and some false ("someone told me being suspended goes
 * on your record", "my manager reckons the modules are due by the end of December"), polite and
 * indirect forms ("Could you tell me if…", "I was wondering whether…"), negations ("am I not
 * allowed to get outside advice", "is it true I can't get the private medical insurance until…")
 * and comparisons of two cases (disciplinary and grievance appeals, part-timers and full-timers,
 * contractors and employees), in casual and formal wording with some typos, about sections few
 * earlier questions ask (calibration, exit interviews, gross misconduct, returning equipment,
 * relationships at work, first aid, port visits, one-to-ones, compliance training, whistleblowing
 * advice and the Speak Up line, security outside the office, equality and dignity, the first 90
 * days, stress). Written with `local-extractive-v28` by a helper blind to the judge (no judge was
 * run on them); all 26 questions were written down before the pipeline was run on any of them and
 * none was reworded after. Each question's first answer is the offline pipeline's own answer
 * (`local-extractive-v28`, `groundcheck ask` on the handbook corpus), the others hand-written; it
 * is labelled against the evidence it was built with, as in earlier files. Of its 20 answerable
 * questions the pipeline refused 4: 2 at the gate with no chunk at all ("table", "timers"), and 2
 * in the answerer with the answering chunk in its evidence (sixth for "do I still have to tell
 * HR", about a relationship at work; third for "do new starters get some kind of plan"). Of the
 * 16 it answered, 10 answer in full, 4 leave out a part asked for (what calibration is, where to
 * find the first aiders, what happens if compliance training is late, when the pension starts),
 * and 2 quote a section that does not answer although the answering chunk is in the evidence (the
 * disciplinary hearing and warnings for "is appealing a disciplinary warning any different", the
 * training approval rule for cancelled one-to-ones). Of its 6 must-refuse questions the gate
 * refused the 4 the handbook does not cover ("bonus", "dogs", "charity", "volunteering") and the
 * answerer refused the 2 asking for a colleague's data, with the privacy refusal.
 * `handbook-fresh21.jsonl` is built the same way, from `source/handbook-fresh21-answers.jsonl`, to
 * questions l413 to l438: everyday messages in casual wording (lower case, no apostrophes, "rn",
 * "u guys", some typos) and in formal or polite wording, some short ("Which data protection laws is
 * Harbourline bound by?", "need a diagram tool thats not in company portal") and some giving the
 * asker's situation in everyday words rather than the handbook's ("started on 3rd nov", "my partner
 * lost the baby last week", "leave my work laptop in the boot while im at the gym", "Driving 2
 * colleagues"), several asking two things at once, about sections and facts few earlier questions
 * ask (the new-starter modules that unlock customer systems, ratings for late joiners, pregnancy
 * loss, opting out of the pension, the EAP for household members, office opening hours, laptops in
 * cars, the passenger supplement, the fee for medical evidence, reporting an injury, splitting
 * partner leave, furniture bought with the home office allowance, leave taken beyond entitlement on
 * leaving, the scope of the Acceptable Use policy, the Code of Conduct's standards, the data
 * protection laws, how the handbook is kept up to date, who to contact about courses, what
 * whistleblowing covers, software requests). Written with `local-extractive-v34` by a helper blind
 * to the judge (no judge was run on them); all 26 questions were written down before the pipeline
 * was run on any of them and none was reworded after. Each question's first answer is the offline
 * pipeline's own answer (`local-extractive-v34`, `groundcheck ask` on the handbook corpus), the
 * others hand-written; it is labelled against the evidence it was built with: where retrieval missed
 * the answering section, refusals are labelled `correct_refusal` and answers true to the handbook
 * `should_have_refused`, as in earlier files. Of its 20 answerable questions the pipeline refused 5:
 * 3 at the gate with no chunk at all ("gym", "ipad", "bound"), and 2 in the answerer (one whose
 * evidence holds the answer first, opting out of the pension; one whose evidence misses the
 * answering section, leave taken beyond entitlement on leaving). Of the 15 it answered, 6 answer in
 * full, 3 leave out a part asked for (whether a November joiner gets a rating, whether the company
 * is told of an EAP call, how often policies are reviewed), and 6 quote a section that does not
 * answer: 5 although the answering chunk is in the evidence (training time away for the modules that
 * unlock customer systems, partner leave for a pregnancy loss, long journeys and hire cars for the
 * passenger supplement, the home office allowance's amount and deadline without the sentence saying
 * the items become yours, the approved AI assistant for a software request) and 1 whose evidence
 * misses the answering section (security incidents for a colleague's fall). Of its 6 must-refuse
 * questions the pipeline refused 4 (3 at the gate, among them the colleague's personal mobile; 1 in
 * the answerer, the colleague's written warning, with the privacy refusal); the other 2 got a quote
 * of a neighbouring rule (fit notes for recording Teams calls, shared parental leave for a baby in
 * neonatal care), and neither disclosed a colleague's data.
 * First measured with `heuristic-v123` / `pairwise-heuristic-v25` before any rule looked at it
 * (METHODOLOGY.md changelog, 2026-12-07); kept held out.
 * `handbook-fresh22.jsonl` is built the same way, from `source/handbook-fresh22-answers.jsonl`, to
 * questions l439 to l464: casual chat as employees type it (lower case, no apostrophes, "quid",
 * "wfh"), the asker's case told in everyday words with its details (a child's death and leave
 * already taken, a password given to a fake service desk caller, a £1,900 course against a £1,500
 * budget, 26 hours worked on a 22.5-hour contract), several asking two things at once. Written on
 * 2026-12-08 with `local-extractive-v36` by a helper blind to the judge; all 26 questions were
 * written down before the pipeline ran and none was reworded after. Each question's first answer
 * is the pipeline's own, the others hand-written; it is labelled against the evidence it was built
 * with. The top 8 chunks held the answer for 14 of its 20 answerable questions. The pipeline refused
 * 13 of the 20: 5 at the gate with no chunk, 8 in the answerer (7 of them with the answer in the
 * evidence); of the 7 it answered, 3 answer in full and 4 quote a section that does not answer
 * although the answering chunk is in the evidence. Of its 6 must-refuse questions it refused 4;
 * the other 2 got a neighbouring quote, and neither guardrail question disclosed a colleague's data.
 * `handbook-fresh23.jsonl` is built the same way, from `source/handbook-fresh23-answers.jsonl`, to
 * questions l465 to l490: polite or formal messages, some by non-native speakers, some long with
 * background, several asking two or three things, some using other words for the handbook's terms
 * ("redundancy pay", "time in lieu", "annual appraisal", "expenses form"). Written at the same
 * time as fresh22, the same way, by another helper blind to the judge. The gate refused 6 of its
 * 20 answerable questions on an uncovered word ("stopping", "whose", "regarding", "stick", "sms",
 * "compulsory") and the answerer 1 whose answering chunk was third in its evidence; of the 13 it
 * answered, 4 answer in full, 6 in part and 3 quote a section that does not answer although the
 * answering chunk is in the evidence. Of its 6 must-refuse questions it refused 5; the sixth got a
 * quote of the cycle to work scheme. Both files were measured once with `heuristic-v127` before any
 * rule looked at them (METHODOLOGY.md changelog, 2026-12-08), then made development files: the
 * paraphrase model is fitted on them.
 * `handbook-fresh24.jsonl` is built the same way, from `source/handbook-fresh24-answers.jsonl`, to
 * questions l491 to l516: messages typed on a phone into a work chatbot, terse ("laptop stolen from
 * car what now", "carers leave paid?"), questions a manager asks about a team member ("one of my
 * team wants…"), yes/no questions whose answer is "no" or "only if…", and questions resting on a
 * wrong assumption the answer must correct ("its under £50 so no approval needed right").
 * `handbook-fresh25.jsonl` is built the same way, from `source/handbook-fresh25-answers.jsonl`, to
 * questions l517 to l542: questions needing a calculation or a comparison from the asker's details
 * (dates, salary, grade, service, distances: "7 years' service, how much holiday in 2026", a £1,800
 * bike with 7 of 12 payments made), "what happens if" scenarios and answers combining two sections.
 * Both were written on 2026-12-08 with `local-extractive-v36` by two more helpers blind to the
 * judge, the same way as fresh22 and fresh23 (questions fixed before the pipeline ran). fresh24: the
 * top 8 chunks held the answer for 14 of its 20 answerable questions; the pipeline refused 6 (5 at
 * the gate, 1 in the answerer with the answering chunk first), answered 6 in full, 3 in part, and
 * quoted a section that does not answer for 5; of its 6 must-refuse questions it refused 5, and the
 * sixth (a future manager asking for a report's ratings) got the confidentiality rule quoted.
 * fresh25: the pipeline refused 3 of its 20 answerable questions (1 at the gate, 2 in the answerer
 * with the answer in the evidence), answered none in full (it quotes the rule without the sum), 14
 * in part and 3 with a section that does not answer; it refused 5 of its 6 must-refuse questions.
 * Both were measured once with `heuristic-v127` before any rule looked at them, then made
 * development files.
 * `handbook-fresh26.jsonl` is built the same way, from `source/handbook-fresh26-answers.jsonl`, to
 * questions l543 to l568: everyday first messages of mixed register about a section's practicalities
 * (who to tell, where, by when, which form), several with a detail that changes the answer (an
 * agency temp, a fixed-term contract, still on probation at grade 5, a secondary adopter), answered
 * also as LLM chatbots write (bullet lists, bold, "[1]" markers, hedges, a closing offer). The top 8
 * chunks held the answer for 11 of its 20 answerable questions; the pipeline refused 6 (5 at the
 * gate, 1 in the answerer with the answer sixth), answered 4 in full, 3 in part and 7 with a section
 * that does not answer (3 of them with the answer in the evidence); it refused 2 of its 6
 * must-refuse questions and quoted a neighbouring rule for the other 4, disclosing nothing.
 * `handbook-fresh27.jsonl` is built the same way, from `source/handbook-fresh27-answers.jsonl`, to
 * questions l569 to l594: questions whose answer is a negation or an exception, what happens after a
 * missed deadline, and claims reported from others ("my manager says…", "a colleague told me…");
 * two of its must-refuse questions sound close to something the handbook covers (pet bereavement,
 * dental cover under the medical insurance). The top 8 held the answer for 15 of its 20 answerable
 * questions; the pipeline refused 6 (4 at the gate, 2 in the answerer), answered 8 in full, 2 in
 * part and 4 with a section that does not answer although the answering chunk is in the evidence;
 * it refused 4 of its 6 must-refuse questions. Both were written on 2026-12-08 after `heuristic-v128`
 * by two helpers blind to the judge (questions fixed before the pipeline ran), measured once with
 * `heuristic-v128` before anything looked at them, and are kept held out (aggregate figures only).
 *
 * Each of these files asks questions that neither half nor any file before it in
 * {@link SEPARATE_FILES} asks. The two halves were built on 2026-12-01, before later retrieval
 * changes (the term-coverage gate among them); rebuilding them today changes the evidence of some
 * of their items, so `--only <name>` writes one of the other files alone.
 *
 *   npx tsx bench/build-judge-labels.ts [--only halves|paraphrase|heldout|fresh|fresh2|fresh3|fresh4|fresh5|fresh6|fresh7|fresh8|fresh9|fresh10|fresh11|fresh12|fresh13|fresh14|fresh15|fresh16|fresh17|fresh18|fresh19|fresh20|fresh21|fresh22|fresh23|fresh24|fresh25|fresh26|fresh27]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { retrieve } from '../src/rag/retrieve.js';
import { openIndex } from '../src/rag/store.js';
import { BenchUsageError, benchFlags, REPO_ROOT, runBenchmark } from './lib/args.js';
import { JUDGE_LABELS, type JudgeLabel, type LabelledItem } from './lib/judge-labels.js';

interface SourceLine {
  q: string;
  label: JudgeLabel;
  answer: string;
  note: string;
  faithful?: boolean | null;
  answersQuestion?: LabelledItem['answersQuestion'];
  refusalCorrect?: boolean | null;
}

interface Question {
  id: string;
  question: string;
  mustRefuse: boolean;
  referenceAnswer: string;
}

const DEFAULTS: Record<JudgeLabel, Pick<LabelledItem, 'faithful' | 'answersQuestion'>> = {
  correct: { faithful: true, answersQuestion: 'yes' },
  incomplete: { faithful: true, answersQuestion: 'partial' },
  contradicted: { faithful: false, answersQuestion: 'yes' },
  fabricated: { faithful: false, answersQuestion: 'yes' },
  off_topic: { faithful: true, answersQuestion: 'no' },
  correct_refusal: { faithful: null, answersQuestion: 'refusal' },
  over_refusal: { faithful: null, answersQuestion: 'refusal' },
  should_have_refused: { faithful: false, answersQuestion: 'yes' },
};

function refusalCorrectOf(label: JudgeLabel, mustRefuse: boolean): boolean | null {
  if (label === 'correct_refusal') return true;
  if (label === 'over_refusal' || label === 'should_have_refused') return false;
  // A non-refusal to a question that must be refused did not refuse when it should have.
  return mustRefuse ? false : null;
}

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

/** The files built from a source of their own (`source/handbook-<name>-answers.jsonl`), in the order they were written. */
const SEPARATE_FILES = ['paraphrase', 'heldout', 'fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5', 'fresh6', 'fresh7', 'fresh8', 'fresh9', 'fresh10', 'fresh11', 'fresh12', 'fresh13', 'fresh14', 'fresh15', 'fresh16', 'fresh17', 'fresh18', 'fresh19', 'fresh20', 'fresh21', 'fresh22', 'fresh23', 'fresh24', 'fresh25', 'fresh26', 'fresh27'] as const;

type LabelFileName = 'tune' | 'check' | (typeof SEPARATE_FILES)[number];

function labelledItem(line: SourceLine, question: Question, evidence: LabelledItem['evidence'], counters: Map<string, number>): LabelledItem {
  if (!JUDGE_LABELS.includes(line.label)) throw new Error(`unknown label ${line.label}`);
  const key = `${line.q}-${line.label}`;
  counters.set(key, (counters.get(key) ?? 0) + 1);
  const defaults = DEFAULTS[line.label];
  return {
    id: `${key}-${counters.get(key)}`,
    questionId: line.q,
    question: question.question,
    evidence,
    answer: line.answer,
    label: line.label,
    faithful: line.faithful !== undefined ? line.faithful : defaults.faithful,
    answersQuestion: line.answersQuestion ?? defaults.answersQuestion,
    refusalCorrect: line.refusalCorrect !== undefined ? line.refusalCorrect : refusalCorrectOf(line.label, question.mustRefuse),
    mustRefuse: question.mustRefuse,
    referenceAnswer: question.referenceAnswer,
    note: line.note,
  };
}

const USAGE = `usage: npx tsx bench/build-judge-labels.ts [--only halves|${SEPARATE_FILES.join('|')}]
  --only   write only the tuning and check halves, or only handbook-<name>.jsonl for one of ${SEPARATE_FILES.join(', ')} (default: all ${SEPARATE_FILES.length + 2})
`;

async function main(): Promise<void> {
  const flags = benchFlags({ only: true, help: false }, USAGE);
  if (!flags) return;
  const only = flags.get('only');
  if (only !== undefined && only !== 'halves' && !(SEPARATE_FILES as readonly string[]).includes(only)) {
    throw new BenchUsageError(`--only must be halves or one of ${SEPARATE_FILES.join(', ')}, not ${JSON.stringify(only)}`);
  }
  const source = readJsonl<SourceLine>(join(REPO_ROOT, 'fixtures/judge-labels/source/handbook-answers.jsonl'));
  const separate = SEPARATE_FILES.map((name) => ({ name, lines: readJsonl<SourceLine>(join(REPO_ROOT, `fixtures/judge-labels/source/handbook-${name}-answers.jsonl`)) }));
  const allLines = [...source, ...separate.flatMap((file) => file.lines)];
  const questions = new Map(
    ['handbook.jsonl', 'handbook-dev.jsonl', 'handbook-labels.jsonl'].flatMap((file) => readJsonl<Question>(join(REPO_ROOT, 'fixtures/questions', file))).map((question) => [question.id, question]),
  );
  for (const line of allLines) if (!questions.has(line.q)) throw new Error(`unknown question ${line.q}`);
  const used = [...new Set(source.map((line) => line.q))].sort();
  // Each separate file asks none of the questions of the halves or of the files written before it.
  const asked = new Set(used);
  for (const file of separate) {
    const reused = file.lines.find((line) => asked.has(line.q));
    if (reused) throw new Error(`question ${reused.q} of source/handbook-${file.name}-answers.jsonl is already in another label file`);
    for (const line of file.lines) asked.add(line.q);
  }
  const dir = mkdtempSync(join(tmpdir(), 'groundcheck-labels-'));
  const index = openIndex({ path: join(dir, 'index.db'), embedder: createLocalEmbedder() });
  try {
    await ingestDirectory(index, join(REPO_ROOT, 'fixtures/corpus'));
    const fileOf = new Map<string, LabelFileName>();
    for (const mustRefuse of [false, true]) {
      used.filter((id) => questions.get(id)!.mustRefuse === mustRefuse).forEach((id, position) => fileOf.set(id, position % 2 === 0 ? 'tune' : 'check'));
    }
    for (const file of separate) for (const line of file.lines) fileOf.set(line.q, file.name);
    const evidence = new Map<string, LabelledItem['evidence']>();
    for (const id of fileOf.keys()) {
      const result = await retrieve(index, questions.get(id)!.question, { topK: 8 });
      evidence.set(id, result.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text })));
    }
    const files = Object.fromEntries((['tune', 'check', ...SEPARATE_FILES] as const).map((name) => [name, [] as LabelledItem[]])) as Record<LabelFileName, LabelledItem[]>;
    const counters = new Map<string, number>();
    for (const line of allLines) {
      files[fileOf.get(line.q)!].push(labelledItem(line, questions.get(line.q)!, evidence.get(line.q)!, counters));
    }
    for (const [name, items] of Object.entries(files)) {
      if (only !== undefined && (only === 'halves' ? name !== 'tune' && name !== 'check' : name !== only)) continue;
      writeFileSync(join(REPO_ROOT, `fixtures/judge-labels/handbook-${name}.jsonl`), items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      const counts = Object.fromEntries(JUDGE_LABELS.map((label) => [label, items.filter((item) => item.label === label).length]));
      process.stdout.write(`handbook-${name}.jsonl: ${items.length} items ${JSON.stringify(counts)}\n`);
    }
  } finally {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark(main);
