// npx tsx scripts/fact-corpus.ts
// Runs the facts check over every answer of the labelled set
// (test/fixtures/answers-about-business/answers.yaml) and prints its size by assistant and kind,
// the precision and recall over the labelled wrong contact facts, and every miss: the figures
// docs/answer-facts.md states.
import { ASSISTANTS, FACT_KINDS, scoreFactCorpus } from '../test/helpers/fact-corpus';

const score = scoreFactCorpus();
const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
const answers = score.results.map((result) => result.answer);

console.log(`${score.answers} answers: ${ASSISTANTS.map((assistant) => `${assistant} ${answers.filter((answer) => answer.assistant === assistant).length}`).join(', ')}`);
console.log(`  direct questions about the business ${answers.filter((answer) => answer.about).length}, searches that may name it ${answers.filter((answer) => !answer.about).length}`);
console.log(`${score.labelled} labelled wrong contact facts: ${FACT_KINDS.map((kind) => `${kind} ${answers.flatMap((answer) => answer.wrong).filter((fact) => fact.kind === kind).length}`).join(', ')}`);
console.log(`  answers with none labelled wrong ${answers.filter((answer) => answer.wrong.length === 0).length}; contact facts read as right ${score.results.reduce((sum, result) => sum + result.check.right.length, 0)}`);
console.log(`found ${score.truePositives} of ${score.labelled} (recall ${percent(score.recall)}); ${score.findings} findings, ${score.truePositives} labelled (precision ${percent(score.precision)})`);
for (const miss of score.misses) console.log(`- ${miss.id}: ${miss.miss} ${miss.kind} ${JSON.stringify(miss.said)}${miss.quote === null ? '' : ` in ${JSON.stringify(miss.quote)}`}`);
