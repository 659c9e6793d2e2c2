// npm run judge-agreement -- [--recorded FILE] [--corpus FILE] [--verbose]
// Judges every labelled answer a run's judge would read (test/fixtures/answers-about-business/
// answers.yaml: an answer to a direct question about its business, or one that names it) and prints how far the answer judge agrees with the labels: tone, each matched
// claim's verdict, answers found wrong, quotes dropped, tokens and cost per verdict.
// With JUDGE_PROVIDER's key (else the first assistant key set) it asks the real model: one call an
// answer, not counted in PROBE_DAILY_CALLS. Without a key it says so and exits 0.
// --recorded FILE runs on recorded verdicts (a YAML map of answer id to the verdict a model gave)
// through a local fake of the provider's API (JUDGE_PROVIDER's, ChatGPT's by default): the same
// client library, quote checks and scoring as a real run, and no network.
// --verbose lists each answer whose verdict differs from its labels: its tone, each claim's verdict,
// the labelled claims none of the judge's matched, the judge's that matched none, what was dropped.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createJudge } from '../server/answer-check/judge';
import { exitOnConfigError, loadConfig } from '../server/config';
import { ASSISTANTS, ASSISTANT_IDS } from '../server/visibility-probe/assistant-catalogue';
import { agreement, agreementLines, casesToJudge, CORPUS_FILE, isAssistantId, judgeCases, judgeRecorded, readJudgeCorpus, readRecordedVerdicts, type AnswerScore } from '../test/helpers/judge-corpus';

const { values } = parseArgs({ options: { recorded: { type: 'string' }, corpus: { type: 'string' }, verbose: { type: 'boolean' } } });

const wanted = process.env.JUDGE_PROVIDER;

/** The labelled answers a run's judge would read; a corpus missing stops the script with one line. */
function labelled() {
  const file = values.corpus ?? CORPUS_FILE;
  if (!existsSync(file)) {
    console.error(`No labelled corpus at ${path.relative(process.cwd(), file)}.`);
    process.exit(1);
  }
  const corpus = readJudgeCorpus(file);
  return { total: corpus.answers.length, ...casesToJudge(corpus) };
}

function report(corpus: ReturnType<typeof labelled>, scores: readonly AnswerScore[], model: string) {
  const { total, cases, direct, notNaming } = corpus;
  // A corpus without direct questions (`about: true`) judges only the answers that name their business.
  console.log(
    direct === 0
      ? `${total} answers in the corpus, ${cases.length} name their business (${notNaming} do not, and are not judged)`
      : `${total} answers in the corpus, ${cases.length} judged: ${direct} to a direct question about their business, ${cases.length - direct} more that name it (${notNaming} neither, and are not judged)`,
  );
  for (const line of agreementLines(agreement(scores, model), model)) console.log(line);
  if (!values.verbose) return;
  for (const score of scores) {
    const notes = [
      score.failed === null ? null : `no verdict: ${score.failed}`,
      score.failed === null && score.judgedTone !== score.labelledTone && score.labelledTone ? `tone labelled ${score.labelledTone}, judged ${score.judgedTone ?? 'none (quote dropped)'}` : null,
      ...score.disagreements,
      ...score.unmatched.map((claim) => `labelled ${claim} not matched`),
      ...score.unlabelled.map((claim) => `judged ${claim}, not labelled`),
      score.dropped > 0 ? `dropped: ${score.droppedParts.join(', ')}` : null,
    ].filter((note): note is string => note !== null);
    if (notes.length > 0) console.log(`- ${score.id}: ${notes.join('; ')}`);
  }
}

async function main() {
  if (values.recorded !== undefined) {
    const id = isAssistantId(wanted) ? wanted : 'chatgpt';
    const corpus = labelled();
    const { scores, model, notRecorded } = await judgeRecorded(id, corpus.cases, readRecordedVerdicts(values.recorded));
    console.log(`Recorded verdicts through a fake of ${ASSISTANTS[id].label}'s API, as ${model} (the token counts are the fake's, not a provider's)${notRecorded > 0 ? `; ${notRecorded} answers have no recorded verdict` : ''}`);
    report(corpus, scores, model);
    return;
  }
  // JUDGE_PROVIDER named, its key not set: nothing to ask, which is not an error here.
  if (isAssistantId(wanted) && !process.env[`${ASSISTANTS[wanted].envPrefix}_API_KEY`]) {
    console.log(`No ${ASSISTANTS[wanted].envPrefix}_API_KEY set for JUDGE_PROVIDER=${wanted}: no answer judged (--recorded FILE runs on recorded verdicts).`);
    return;
  }
  const setting = exitOnConfigError(() => loadConfig()).judge;
  if (setting === null) {
    console.log(`No assistant's key set (${ASSISTANT_IDS.map((id) => `${ASSISTANTS[id].envPrefix}_API_KEY`).join(', ')}): no answer judged (--recorded FILE runs on recorded verdicts).`);
    return;
  }
  const corpus = labelled();
  const { cases } = corpus;
  const judge = createJudge(setting);
  console.log(`Judging ${cases.length} answers with ${ASSISTANTS[setting.id].label}'s ${setting.model}: ${cases.length} calls or more (retries)`);
  const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  let done = 0;
  const scores = await judgeCases(judge, cases, { allowCall: () => true, clock: () => new Date(), sleep: realSleep, timeoutMs: 60_000 }, () => {
    done += 1;
    process.stderr.write(`\r${done} of ${cases.length}`);
  });
  process.stderr.write('\n');
  report(corpus, scores, setting.model);
}

void main();
