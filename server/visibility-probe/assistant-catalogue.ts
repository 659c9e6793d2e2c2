/**
 * The AI assistants the visibility probe can ask, as configuration names them. No client library
 * is loaded here: the configuration reads this at every start, whether the probe is on or not.
 */
export const ASSISTANTS = {
  chatgpt: {
    label: 'ChatGPT',
    /** OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL. */
    envPrefix: 'OPENAI',
    /** The API base as the client library takes it. */
    defaultBaseUrl: 'https://api.openai.com/v1',
    // The model ChatGPT's own plans fall back to: answers like the product's, at a fifth of
    // GPT-5's price (docs/ai-visibility-probe.md has the prices).
    defaultModel: 'gpt-5-mini',
    // The answer judge's model (JUDGE_MODEL) when ChatGPT judges: the smallest of its family, for
    // a task that reads rather than searches (docs/answer-judge.md has the prices).
    judgeModel: 'gpt-5-nano',
  },
  claude: {
    label: 'Claude',
    envPrefix: 'ANTHROPIC',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    // The model claude.ai answers with by default.
    defaultModel: 'claude-sonnet-4-6',
    judgeModel: 'claude-haiku-4-5',
  },
  gemini: {
    label: 'Gemini',
    envPrefix: 'GEMINI',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    // An alias Google moves to its newest Flash model, the one the Gemini app answers with: a
    // dated Gemini model is shut down a year or so after it comes out. Each answer records the
    // model that gave it.
    defaultModel: 'gemini-flash-latest',
    // Google's alias for its newest Flash-Lite, for the same reason as the Flash one above.
    judgeModel: 'gemini-flash-lite-latest',
  },
  perplexity: {
    label: 'Perplexity',
    envPrefix: 'PERPLEXITY',
    defaultBaseUrl: 'https://api.perplexity.ai',
    defaultModel: 'sonar',
    // Perplexity's smallest model is the one it answers with.
    judgeModel: 'sonar',
  },
} as const;

export type AssistantId = keyof typeof ASSISTANTS;

/** In the order reports list them. */
export const ASSISTANT_IDS: readonly AssistantId[] = ['chatgpt', 'claude', 'gemini', 'perplexity'];
