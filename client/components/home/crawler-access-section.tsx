import { Link } from '../../routing/links';
import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/route-paths';
import { color, mediaUp, space } from '../../theme/theme';
import { Icon } from '../ui/icon';
import { Container, Section } from '../ui/layout-primitives';
import { CodeSample } from './code-sample';
import { SectionIntro } from './section-intro';

const GUIDE_PATH = '/blog/robots-llms-txt-guide';
// The article's own title is the clearest link text; the fallback covers a renamed or removed article.
// A fixed label, not the article's title: looking it up would load every article summary here.
const guideTitle = 'Read our robots.txt and llms.txt guide';
const checkTitle = 'See what AI crawlers see on your site: free AI-readiness check';

const Samples = styled.div`
  display: grid;
  gap: ${space.lg};
  align-items: start;
  ${mediaUp('lg')} { grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); }
`;

const Note = styled.div`
  margin-top: ${space.xl};
  p { margin-bottom: ${space.sm}; color: ${color.inkMuted}; }
  ul { list-style: none; margin: 0; padding: 0; display: grid; gap: ${space.sm}; }
  a { font-weight: 600; }
  /* The arrow stays in the line of text, so it follows the last word when the title wraps. */
  a svg { display: inline-block; margin-left: 0.35em; vertical-align: -0.2em; }
`;

export function CrawlerAccessSection({ crawler }: { crawler: HomeContent['crawlerAccess'] }) {
  return (
    <Section $tone="alt" aria-labelledby="crawler-access-title">
      <Container>
        <SectionIntro id="crawler-access-title" title={crawler.title} lead={crawler.lead} />
        <Samples>
          <CodeSample fileName="robots.txt" code={crawler.robotsSample} />
          <CodeSample fileName="llms.txt" code={crawler.llmsSample} />
        </Samples>
        <Note>
          <p>{crawler.note}</p>
          <ul>
            <li>
              <Link to={routesPaths.aiReadinessCheck}>
                {checkTitle}
                <Icon name="arrow-right" size={18} />
              </Link>
            </li>
            <li>
              <Link to={GUIDE_PATH}>
                {guideTitle}
                <Icon name="arrow-right" size={18} />
              </Link>
            </li>
          </ul>
        </Note>
      </Container>
    </Section>
  );
}
