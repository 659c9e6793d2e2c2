import { createServer, type IncomingHttpHeaders } from 'node:http';
import { ASSISTANTS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import type { RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { listenOnLoopback } from './loopback-server';

/**
 * Each assistant's API as a local HTTP server on 127.0.0.1, speaking that provider's own wire
 * format (request paths, key headers, answer and error bodies), written after the providers' API
 * references and the response schemas of their AI SDK packages:
 * - ChatGPT: OpenAI's Responses API, POST /v1/responses, a web_search_call and a message whose
 *   output_text carries url_citation annotations;
 * - Claude: Anthropic's Messages API, POST /v1/messages, a server_tool_use, its
 *   web_search_tool_result and text blocks with web_search_result_location citations;
 * - Gemini: POST /v1beta/models/{model}:generateContent, a candidate with groundingMetadata whose
 *   chunks are Google's redirects titled with the site's domain;
 * - Perplexity: POST /chat/completions, with citations and search_results.
 * A request for structured output (the answer judge's: `isJudgeRequest`) is answered with a `json`
 * reply in the shape each API gives structured output: OpenAI's output_text holding the JSON;
 * Anthropic's text block holding it when the request asked for output_config.format, or a tool_use
 * of the `json` tool when it offered that tool instead; Gemini's candidate text; Perplexity's
 * message content.
 * The probe reaches them through the *_BASE_URL variables, so every test runs on the real wire,
 * the client library included, and no packet leaves the machine.
 */

export type Reply =
  /** An answer; `model` is the one the API says answered. */
  | { answer: RecordedAnswer; model?: string }
  /** Structured output (a judge's verdict), as the provider gives it for a request with a JSON schema. */
  | { json: unknown; model?: string }
  /** An error in the provider's own shape. */
  | { status: number; headers?: Record<string, string> }
  /** No answer at all: the connection stays open until the fake closes. */
  | { hang: true }
  /** No answer at all: the connection is closed on the question (as a server closes a kept-alive one). */
  | { reset: true }
  /** A body that never ends (bytes sent before the probe stops reading). */
  | { endless: true }
  /** Another reply, sent once `until` has settled (a test acting in the middle of a run first). */
  | { until: Promise<unknown>; then: Reply };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body as sent. */
  body: unknown;
  /** The key the request carried, from the provider's own header. */
  key: string | null;
  /** The user's question in it. */
  question: string | null;
  /** Whether the connection it came on has closed (the caller gave up, or was ended). */
  closed: boolean;
}

export interface FakeAssistant {
  id: AssistantId;
  /** What *_BASE_URL is set to. */
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export const FAKE_MODELS: Record<AssistantId, string> = {
  chatgpt: 'gpt-5-mini-2025-08-07',
  claude: 'claude-sonnet-4-6',
  gemini: 'gemini-3-flash-preview',
  perplexity: 'sonar',
};

const BASE_PATHS: Record<AssistantId, string> = { chatgpt: '/v1', claude: '/v1', gemini: '/v1beta', perplexity: '' };

function keyOf(id: AssistantId, headers: IncomingHttpHeaders): string | null {
  const header = id === 'claude' ? headers['x-api-key'] : id === 'gemini' ? headers['x-goog-api-key'] : headers.authorization?.replace(/^Bearer /, '');
  return typeof header === 'string' ? header : null;
}

/** The text of the user's message, wherever the provider's request shape puts it. */
function questionOf(body: unknown): string | null {
  const texts: string[] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'string' && (key === 'text' || key === 'content')) texts.push(node);
    else if (Array.isArray(node)) for (const item of node) walk(item, key);
    else if (node !== null && typeof node === 'object') for (const [name, value] of Object.entries(node)) walk(value, name);
  };
  if (body !== null && typeof body === 'object') {
    for (const field of ['input', 'messages', 'contents']) if (field in body) walk(Reflect.get(body, field), field);
  }
  return texts[0] ?? null;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

const fieldOf = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((at, name) => (at !== null && typeof at === 'object' ? Reflect.get(at, name) : undefined), node);

/**
 * Whether a request asks for structured output (the answer judge's verdict) rather than an answer
 * to a question: it carries a JSON schema where its API takes one (OpenAI's text.format,
 * Anthropic's output_config.format or its `json` tool, Gemini's responseMimeType, Perplexity's
 * response_format).
 */
export function isJudgeRequest(request: Pick<ReceivedRequest, 'body'>): boolean {
  const { body } = request;
  const tools = fieldOf(body, 'tools');
  return (
    fieldOf(body, 'text', 'format', 'type') === 'json_schema' ||
    fieldOf(body, 'output_config', 'format', 'type') === 'json_schema' ||
    (Array.isArray(tools) && tools.some((tool) => fieldOf(tool, 'name') === 'json')) ||
    fieldOf(body, 'generationConfig', 'responseMimeType') === 'application/json' ||
    fieldOf(body, 'response_format', 'type') === 'json_schema'
  );
}

/**
 * A structured answer's body. Its token counts are the fake's own (a quarter of the characters
 * sent and returned), in the provider's usage fields: a test sees them read, not a provider's.
 */
function jsonBody(id: AssistantId, reply: { json: unknown; model?: string }, request: ReceivedRequest): unknown {
  const text = JSON.stringify(reply.json);
  const model = reply.model ?? FAKE_MODELS[id];
  const inputTokens = Math.ceil(JSON.stringify(request.body).length / 4);
  const outputTokens = Math.ceil(text.length / 4);
  switch (id) {
    case 'chatgpt':
      return {
        id: 'resp_9f8e7d6c5b4a',
        object: 'response',
        created_at: 1_900_000_000,
        status: 'completed',
        model,
        output: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] },
        ],
        usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens },
      };
    case 'claude': {
      // The model's own output format when asked for one; else the `json` tool the library offered.
      const native = fieldOf(request.body, 'output_config', 'format') !== undefined;
      return {
        id: 'msg_01JudgeAbCd',
        type: 'message',
        role: 'assistant',
        model,
        content: native ? [{ type: 'text', text }] : [{ type: 'tool_use', id: 'toolu_01', name: 'json', input: reply.json }],
        stop_reason: native ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      };
    }
    case 'gemini':
      return {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: inputTokens, candidatesTokenCount: outputTokens, totalTokenCount: inputTokens + outputTokens },
        modelVersion: model,
        responseId: 'jU4dG3mEnT5',
      };
    case 'perplexity':
      return {
        id: '0b1c2d3e-0000-4f5a-8b9c-d0e1f2a3b4c5',
        model,
        created: 1_900_000_000,
        object: 'chat.completion',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens, search_context_size: 'low' },
      };
  }
}

function answerBody(id: AssistantId, reply: { answer: RecordedAnswer; model?: string }, question: string): unknown {
  const { text, sources } = reply.answer;
  const model = reply.model ?? FAKE_MODELS[id];
  switch (id) {
    case 'chatgpt':
      return {
        id: 'resp_0a1b2c3d4e5f',
        object: 'response',
        created_at: 1_900_000_000,
        status: 'completed',
        model,
        output: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          {
            type: 'web_search_call',
            id: 'ws_1',
            status: 'completed',
            // Every page the search returned (the probe's client asks for them): the cited ones and one only read.
            action: { type: 'search', query: question, sources: [...sources.map((source) => ({ type: 'url', url: source.url })), { type: 'url', url: 'https://www.read-but-not-cited.example/' }] },
          },
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [
              {
                type: 'output_text',
                text,
                annotations: sources.map((source) => {
                  const at = Math.max(0, text.indexOf(source.url));
                  return { type: 'url_citation', start_index: at, end_index: at + source.url.length, url: source.url, title: source.title ?? source.url };
                }),
              },
            ],
          },
        ],
        usage: { input_tokens: 8_912, input_tokens_details: { cached_tokens: 0 }, output_tokens: 512, output_tokens_details: { reasoning_tokens: 128 }, total_tokens: 9_424 },
      };
    case 'claude':
      return {
        id: 'msg_01AbCdEf',
        type: 'message',
        role: 'assistant',
        model,
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: question } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 'srvtoolu_01',
            // Every page the search returned, the cited ones and one that is only read.
            content: [...sources, { url: 'https://www.read-but-not-cited.example/', title: 'Read, not cited' }].map((source) => ({
              type: 'web_search_result',
              url: source.url,
              title: source.title ?? source.url,
              encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2',
              page_age: 'October 2, 2026',
            })),
          },
          {
            type: 'text',
            text,
            citations: sources.map((source) => ({
              type: 'web_search_result_location',
              url: source.url,
              title: source.title ?? source.url,
              encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm',
              cited_text: 'Gas Safe registered engineers, 24/7 call-outs across West Yorkshire.',
            })),
          },
        ],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 11_204, output_tokens: 486, server_tool_use: { web_search_requests: 1 } },
      };
    case 'gemini':
      return {
        candidates: [
          {
            content: { role: 'model', parts: [{ text }] },
            finishReason: 'STOP',
            groundingMetadata: {
              webSearchQueries: [question],
              groundingChunks: sources.map((source) =>
                // Gemini cites through a redirect of Google's, titled with the site's domain.
                source.url.includes('grounding-api-redirect')
                  ? { web: { uri: source.url, title: source.title } }
                  : { web: { uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(source.url).toString('base64url')}`, title: hostOf(source.url) } },
              ),
              groundingSupports: sources.map((_source, index) => ({ segment: { startIndex: 0, endIndex: Math.min(text.length, 40), text: text.slice(0, 40) }, groundingChunkIndices: [index] })),
            },
          },
        ],
        usageMetadata: { promptTokenCount: 14, candidatesTokenCount: 380, totalTokenCount: 394 },
        modelVersion: model,
        responseId: 'aB3cD4eF5gH6',
      };
    case 'perplexity':
      return {
        id: '6f1a2b3c-0000-4d5e-8f90-a1b2c3d4e5f6',
        model,
        created: 1_900_000_000,
        object: 'chat.completion',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
        citations: sources.map((source) => source.url),
        search_results: sources.map((source) => ({ title: source.title ?? source.url, url: source.url, date: '2026-10-02' })),
        usage: { prompt_tokens: 12, completion_tokens: 401, total_tokens: 413, search_context_size: 'low' },
      };
  }
}

/**
 * An answer's body as sent, written once for each answer and model around a mark where the
 * question goes: the tests' largest answers (a list or cited pages to the probe's read cap) are
 * asked for dozens of times, and writing each whole again would cost the test process more than
 * the probe spends reading it.
 */
const QUESTION_MARK = '\u0000question\u0000';
const writtenAnswers = new WeakMap<RecordedAnswer, Map<string, Buffer[]>>();

function answerBodyBytes(id: AssistantId, reply: { answer: RecordedAnswer; model?: string }, question: string): Buffer {
  const written = writtenAnswers.get(reply.answer) ?? new Map<string, Buffer[]>();
  writtenAnswers.set(reply.answer, written);
  const key = `${id} ${reply.model ?? ''}`;
  let parts = written.get(key);
  if (!parts) {
    parts = JSON.stringify(answerBody(id, reply, QUESTION_MARK))
      .split(JSON.stringify(QUESTION_MARK).slice(1, -1))
      .map((part) => Buffer.from(part));
    written.set(key, parts);
  }
  const asked = Buffer.from(JSON.stringify(question).slice(1, -1));
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [asked, part])));
}

/** The provider's error body for a status; a refused key's message echoes the key, as OpenAI's does. */
function errorBody(id: AssistantId, status: number, key: string | null): unknown {
  const refusedKey = status === 401 || (id === 'gemini' && status === 400);
  switch (id) {
    case 'chatgpt':
      if (refusedKey) return { error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
      if (status === 429) return { error: { message: 'Rate limit reached for gpt-5-mini in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1.', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
      return { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };
    case 'claude':
      return {
        type: 'error',
        error: refusedKey ? { type: 'authentication_error', message: `invalid x-api-key: ${key}` } : status === 429 ? { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } : { type: 'api_error', message: 'Internal server error' },
      };
    case 'gemini':
      if (refusedKey) {
        return {
          error: {
            code: 400,
            message: `API key not valid. Please pass a valid API key. (${key})`,
            status: 'INVALID_ARGUMENT',
            details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }],
          },
        };
      }
      return { error: { code: status, message: status === 429 ? 'Resource has been exhausted (e.g. check quota).' : 'An internal error has occurred.', status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
    case 'perplexity':
      return { error: { message: refusedKey ? `Invalid API key ${key}` : status === 429 ? 'Rate limit exceeded' : 'Internal server error', type: refusedKey ? 'invalid_api_key' : 'server_error', code: status } };
  }
}

/**
 * Starts one provider's fake. A request with another key than `key` is refused as that provider
 * refuses one (401; Gemini: 400 API_KEY_INVALID), its message echoing the key; any other is
 * answered by `reply`, given the request and how many came before it.
 */
export async function startFakeAssistant(id: AssistantId, key: string, reply: (request: ReceivedRequest, index: number) => Reply): Promise<FakeAssistant> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        // Recorded as null: a test sees what arrived.
      }
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, key: keyOf(id, req.headers), question: questionOf(body), closed: false };
      requests.push(request);
      res.once('close', () => (request.closed = true));
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(Buffer.isBuffer(payload) ? payload : JSON.stringify(payload));
      };
      if (request.key !== key) return send(id === 'gemini' ? 400 : 401, errorBody(id, id === 'gemini' ? 400 : 401, request.key));
      const respond = (answer: Reply): void => {
        if ('until' in answer) {
          void answer.until.then(() => respond(answer.then));
          return;
        }
        if ('hang' in answer) return;
        if ('reset' in answer) return void req.socket.destroy();
        if ('endless' in answer) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          const pump = () => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', pump);
          };
          res.write('{"id":"');
          pump();
          return;
        }
        if ('status' in answer) return send(answer.status, errorBody(id, answer.status, request.key), answer.headers);
        if ('json' in answer) return send(200, jsonBody(id, answer, request));
        return send(200, answerBodyBytes(id, answer, request.question ?? ''));
      };
      respond(reply(request, requests.length - 1));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { id, baseUrl: `http://127.0.0.1:${port}${BASE_PATHS[id]}`, requests, close };
}

/** The keys the tests configure: made up, each distinct, so that a leak names its owner. */
export const FAKE_KEYS: Record<AssistantId, string> = {
  chatgpt: 'sk-test-openai-4f9c2a7e1b3d',
  claude: 'sk-ant-test-8d2e6b1f0a9c',
  gemini: 'AIzaTest-gemini-3c7a1e9f5b2d',
  perplexity: 'pplx-test-9b4e2c8a1f6d',
};

/** The environment that points the probe at the fakes. */
export function fakeEnvironment(fakes: readonly FakeAssistant[], keys: Partial<Record<AssistantId, string>> = FAKE_KEYS): Record<string, string> {
  return Object.fromEntries(
    fakes.flatMap((fake) => {
      const prefix = ASSISTANTS[fake.id].envPrefix;
      return [
        [`${prefix}_API_KEY`, keys[fake.id] ?? FAKE_KEYS[fake.id]],
        [`${prefix}_BASE_URL`, fake.baseUrl],
      ];
    }),
  );
}
