import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * The W3C Nu HTML checker (vnu-jar, the checker behind validator.w3.org/nu), errors only, over
 * documents held in memory. One Java run checks them all: the JVM's start-up is most of the cost.
 *
 * vnu is quiet about what it does not read: an argument that names no file (a missing path, a
 * "file:" string) gives no message and exit status 0, the same answer as a valid page. So each
 * document is written to a file, vnu is asked (--verbose) to list the files it read, and a
 * document missing from that list is an error, not a pass.
 */

const VNU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');

/**
 * A check lasts seconds: the JVM's optimising compiler and its parallel collector would spend
 * more CPU than the check itself, on cores the other test files need. The quick compiler alone
 * and the serial collector give the same report for about half the CPU; the quick compiler's
 * frames are larger, and the schema's deep recursion needs a larger thread stack with it.
 */
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xss8m'];

export interface HtmlError {
  /** The name the caller gave the document. */
  document: string;
  line?: number;
  message: string;
  extract?: string;
}

interface VnuMessage {
  type: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

function runVnu(files: string[]): Promise<{ read: string[]; messages: VnuMessage[] }> {
  return new Promise((resolve, reject) => {
    // vnu exits 1 when it finds errors; the report (JSON) is on stderr, the files read on stdout.
    execFile('java', [...JVM_FLAGS, '-jar', VNU_JAR, '--errors-only', '--verbose', '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
        resolve({ read: stdout.split('\n').map((line) => line.trim()).filter(Boolean), messages });
      } catch {
        reject(error ?? new Error(`vnu wrote no JSON report: ${stderr}`));
      }
    });
  });
}

/** Every error the checker finds in each document (name → HTML); none means valid HTML. */
export async function checkHtml(documents: Map<string, string>): Promise<HtmlError[]> {
  if (documents.size === 0) throw new Error('checkHtml was given no document');
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-html-'));
  try {
    const names = new Map<string, string>();
    [...documents].forEach(([name, html], index) => {
      const file = path.join(dir, `${index}.html`);
      writeFileSync(file, html);
      names.set(file, name);
    });
    const { read, messages } = await runVnu([...names.keys()]);
    const unread = [...names].filter(([file]) => !read.includes(file)).map(([, name]) => name);
    if (unread.length > 0) throw new Error(`the HTML checker did not read: ${unread.join(', ')}`);
    return (
      messages
        // 'non-document-error': a document the checker could not parse counts as a failure too.
        .filter((message) => message.type === 'error' || message.type === 'non-document-error')
        .map((message) => {
          const file = message.url?.replace(/^file:/, '') ?? '';
          return {
            document: names.get(file) ?? message.url ?? '(unknown)',
            ...(message.lastLine !== undefined ? { line: message.lastLine } : {}),
            message: message.message,
            ...(message.extract ? { extract: message.extract.trim() } : {}),
          };
        })
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
