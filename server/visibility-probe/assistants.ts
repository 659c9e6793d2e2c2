import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createPerplexity } from '@ai-sdk/perplexity';
import { generateText, type LanguageModel } from 'ai';
import type { ProbeAssistantSetting } from '../config';
import type { AssistantId } from './assistant-catalogue';
import { cappedFetch } from './capped-fetch';
import type { CitedSource } from './who-is-named';

/**
 * The one module that knows the client library (the AI SDK; docs/decisions/022): one client per
 * assistant, each asking a question the way the assistant's own app answers it, with web search
 * where the API offers it.
 */

// The SDK writes its warnings (an option a model ignores) with console.warn, past the server's
// logger and into the CLI's output; nothing in them changes an answer.
globalThis.AI_SDK_LOG_WARNINGS = false;

/** The longest answer a call may be asked for, in tokens (about 1,100 words; a list of recommendations takes 300 to 600). */
const MAX_OUTPUT_TOKENS = 1_500;

/** Web searches one question may make, where the API lets the probe say (each is billed). */
const SEARCHES_PER_QUESTION = 3;

/** Where the searcher is, for the searches: the agency's prospects sell in the UK. */
const SEARCHER_LOCATION = { type: 'approximate', country: 'GB' } as const;

/** An answer as the API gave it, the key scrubbed out should the endpoint have echoed it. */
export interface RawAnswer {
  text: string;
  sources: CitedSource[];
  /** The model that answered, as the API names it (null when it does not say). */
  model: string | null;
}

export interface AssistantClient {
  readonly id: AssistantId;
  /** The model asked for (OPENAI_MODEL, ...). */
  readonly model: string;
  /** One question, one call: the library never retries (maxRetries 0), the caller does. */
  ask(question: string, signal: AbortSignal): Promise<RawAnswer>;
}

/** What every call shares. */
interface Call {
  prompt: string;
  maxOutputTokens: number;
  maxRetries: 0;
  abortSignal: AbortSignal;
}

type Answer = Awaited<ReturnType<typeof generateText>>;
type UrlSource = Extract<Answer['sources'][number], { sourceType: 'url' }>;

/** What the probe keeps of the library's result. */
interface Result {
  text: string;
  /** The web pages the answer rests on, as the provider's package lists them. */
  sources: UrlSource[];
  modelId: string;
}

function result(answer: Pick<Answer, 'text' | 'sources' | 'response'>): Result {
  return { text: answer.text, sources: answer.sources.flatMap((source) => (source.sourceType === 'url' ? [source] : [])), modelId: answer.response.modelId };
}

/**
 * Each assistant's provider, made from its setting: the one place where a key, an API base and
 * the fetch meet the client library. The probe's questions and the answer judge share it.
 */
function connect(setting: ProbeAssistantSetting, fetch: typeof globalThis.fetch) {
  const connection = { apiKey: setting.apiKey.reveal(), baseURL: setting.baseUrl, fetch };
  switch (setting.id) {
    case 'chatgpt':
      return { id: setting.id, provider: createOpenAI(connection) } as const;
    case 'claude':
      return { id: setting.id, provider: createAnthropic(connection) } as const;
    case 'gemini':
      return { id: setting.id, provider: createGoogleGenerativeAI(connection) } as const;
    case 'perplexity':
      return { id: setting.id, provider: createPerplexity(connection) } as const;
  }
}

type Connection = ReturnType<typeof connect>;

/** The model of a connection, as the client library calls it: ChatGPT's through the Responses API. */
function modelOf(connection: Connection, model: string): LanguageModel {
  switch (connection.id) {
    case 'chatgpt':
      return connection.provider.responses(model);
    case 'claude':
    case 'gemini':
    case 'perplexity':
      return connection.provider(model);
  }
}

/** One assistant's model, for a call of another kind than a question (the answer judge's). */
export function languageModel(setting: ProbeAssistantSetting, fetch: typeof globalThis.fetch): LanguageModel {
  return modelOf(connect(setting, fetch), setting.model);
}

/** The model that answered: behind Gemini's alias, the version its answer's modelVersion names; else the one the library names. */
export function answeringModel(response: Pick<Answer['response'], 'modelId' | 'body'>): string {
  const body = response.body;
  const version = typeof body === 'object' && body !== null && 'modelVersion' in body && typeof body.modelVersion === 'string' ? body.modelVersion : null;
  return version ?? response.modelId;
}

/** What takes the key out of any text an endpoint sent back (an answer that echoes it, say). */
export function keyScrubber(setting: ProbeAssistantSetting): (text: string) => string {
  const key = setting.apiKey.reveal();
  return (text) => text.split(key).join('[key removed]');
}

/** How each assistant is asked. */
function askerFor(setting: ProbeAssistantSetting, fetch: typeof globalThis.fetch): (call: Call) => Promise<Result> {
  const connection = connect(setting, fetch);
  const model = modelOf(connection, setting.model);
  switch (connection.id) {
    case 'chatgpt': {
      const openai = connection.provider;
      // The Responses API, whose web_search tool is ChatGPT's search. store: false, so that
      // OpenAI keeps no copy of the conversation to retrieve later.
      const tools = { web_search: openai.tools.webSearch({ userLocation: SEARCHER_LOCATION }) };
      const providerOptions = { openai: { reasoningEffort: 'low', maxToolCalls: SEARCHES_PER_QUESTION, store: false } };
      return async (call) => result(await generateText({ ...call, model, tools, providerOptions }));
    }
    case 'claude': {
      const anthropic = connection.provider;
      const tools = { web_search: anthropic.tools.webSearch_20250305({ maxUses: SEARCHES_PER_QUESTION, userLocation: SEARCHER_LOCATION }) };
      return async (call) => {
        const answer = result(await generateText({ ...call, model, tools }));
        // The SDK lists every search result Claude read as a source, and each citation too: only
        // a citation carries the text it cites.
        return { ...answer, sources: answer.sources.filter((source) => source.providerMetadata?.anthropic?.citedText !== undefined) };
      };
    }
    case 'gemini': {
      const google = connection.provider;
      const tools = { google_search: google.tools.googleSearch({}) };
      return async (call) => {
        const answer = await generateText({ ...call, model, tools });
        // The SDK names the model asked for; the answer's modelVersion names the one behind an alias.
        return { ...result(answer), modelId: answeringModel(answer.response) };
      };
    }
    case 'perplexity':
      // Perplexity searches the web for every question by itself.
      return async (call) => result(await generateText({ ...call, model }));
  }
}

/** A client for one configured assistant. `fetch` is the capped one unless a test says otherwise. */
export function createAssistantClient(setting: ProbeAssistantSetting, fetch: typeof globalThis.fetch = cappedFetch()): AssistantClient {
  const ask = askerFor(setting, fetch);
  const scrub = keyScrubber(setting);
  return {
    id: setting.id,
    model: setting.model,
    async ask(question, signal) {
      const answer = await ask({ prompt: question, maxOutputTokens: MAX_OUTPUT_TOKENS, maxRetries: 0, abortSignal: signal });
      return {
        text: scrub(answer.text),
        sources: answer.sources.map((source) => ({ url: scrub(source.url), title: source.title === undefined ? null : scrub(source.title) })),
        model: answer.modelId ? scrub(answer.modelId) : null,
      };
    },
  };
}
