/** A response as the analysers read it: the address it came from, its status and its text. */
export interface FetchedText {
  /** The final address, after redirects. */
  url: string;
  status: number;
  /** The Content-Type header without parameters, lower case ('' when absent). */
  contentType: string;
  text: string;
  /** Reading stopped at the size limit: the text is the start of the body only. */
  truncated: boolean;
}

/** A charset a page declares in its first bytes (<meta charset> or http-equiv), as the HTML standard's prescan looks for it. */
function declaredCharset(head: string): string | undefined {
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1];
}

function decoder(label: string | undefined): TextDecoder {
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/**
 * The text of a body: in the charset its Content-Type names, or for HTML the one its first 1024
 * bytes declare, else UTF-8. A byte-order mark is dropped, as browsers and crawlers do.
 */
export function decodeBody(body: Uint8Array, contentTypeHeader: string | undefined): { contentType: string; text: string } {
  const [type = '', ...parameters] = (contentTypeHeader ?? '').split(';');
  const contentType = type.trim().toLowerCase();
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([\w-]+)"?/i.exec(parameter)?.[1]).find(Boolean);
  const sniffed = !charset && contentType.includes('html') ? declaredCharset(Buffer.from(body.subarray(0, 1024)).toString('latin1')) : undefined;
  return { contentType, text: decoder(charset ?? sniffed).decode(body) };
}
