/**
 * Text made safe for HTML or XML element content and quoted attributes. Numeric references, which
 * every HTML and XML reader decodes (unlike &apos;, which some feed readers show as it is).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
