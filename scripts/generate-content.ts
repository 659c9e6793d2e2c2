import path from 'node:path';
import { ContentError } from './lib/content';
import { generateContent } from './lib/generate-content';

try {
  const content = generateContent(path.resolve(__dirname, '..'));
  console.log(`content: ${content.articles.length} articles, ${content.legal.length} legal pages`);
} catch (error) {
  if (error instanceof ContentError) {
    console.error(`Content error in ${error.message}`);
    process.exit(1);
  }
  throw error;
}
