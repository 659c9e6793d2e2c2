import type { AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { MAX_RESPONSE_BYTES } from '../../server/visibility-probe/capped-fetch';
import { namedFirst } from '../fixtures/visibility-probe-answers';
import type { Reply } from './fake-assistants';

/**
 * The answers that cost the probe the most to read, as an assistant's API (or whatever a
 * *_BASE_URL points at) can send them: each just under the read cap, so that the client library
 * parses all of it. Used by the tests (test/integration/hostile-assistants.test.ts) and by
 * `npm run bench -- --answers-only`.
 */

/** What one cited page adds to an answer in each provider's wire format, as the fakes write it (a Claude answer lists it twice: search result and citation). */
const BYTES_PER_CITED_PAGE: Record<AssistantId, number> = { chatgpt: 146, claude: 407, gemini: 245, perplexity: 92 };

/** The body each shape fills: near the cap, with room for the rest of the answer. */
const FILL = 0.9 * MAX_RESPONSE_BYTES;

/** One-word list items: as many names as an answer can hold. JSON writes each line break as two bytes. */
const listItems = Array.from({ length: Math.ceil(FILL / 8) }, (_, i) => `- B${i.toString(36).padStart(4, '0')}`)
  .join('\n')
  .slice(0, Math.floor((FILL * 8) / 9));

const listAnswer: Reply = { answer: { text: listItems, sources: [] } };

/** One answer for each assistant, made once: the fakes write an answer's body once (fake-assistants.ts), not at each question. */
const citedPages = new Map<AssistantId, Reply>();
function citedPagesAnswer(id: AssistantId): Reply {
  let reply = citedPages.get(id);
  if (!reply) {
    const sources = Array.from({ length: Math.floor(FILL / BYTES_PER_CITED_PAGE[id]) }, (_, i) => ({ url: `https://s${i}.example/`, title: `S${i}` }));
    reply = { answer: { text: namedFirst.text, sources } };
    citedPages.set(id, reply);
  }
  return reply;
}

export const hostileAnswers: Record<string, (id: AssistantId) => Reply> = {
  'one-word list items to the read cap': () => listAnswer,
  'cited pages to the read cap': citedPagesAnswer,
  'an answer without end': () => ({ endless: true }),
};
