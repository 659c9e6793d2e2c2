/**
 * What the thank-you page and the server share about the AI visibility probe of an audit request:
 * what the prospect is shown of it ("What AI assistants say when asked about {keyword}").
 */

/** One assistant's part, as the prospect sees it. */
export interface ProbeViewAssistant {
  /** "ChatGPT" */
  name: string;
  /** Answers it gave, and how many of them named the business. */
  answered: number;
  named: number;
  /** The businesses it named instead, the most named first. */
  others: string[];
  /** One of its answers: the question and the start of the answer (someone else's words, shown as text). */
  example: { question: string; answer: string } | null;
}

/**
 * The probe as the thank-you page shows it: still running, done with each assistant's part, or
 * not run (with why, in one line). `keyword` is what the questions were about.
 */
export type ProbeView = {
  keyword: string;
  /** What the answers were searched for: the business's name (null: its home page gives none) and where it was read, and its site. Missing from a view stored before it was kept. */
  searchedFor?: { name: string | null; from: string; site: string | null };
} & (
  | { status: 'pending' }
  | { status: 'done'; assistants: ProbeViewAssistant[] }
  | { status: 'skipped'; reason: string }
);
