import styled from 'styled-components';
import type { ArticlePageData } from '../../shared/content-schema';
import { routesPaths, site } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { ArticleColumn } from '../components/article/article-column';
import { ArticleCta } from '../components/article/article-cta';
import { ArticleHeader } from '../components/article/article-header';
import { articleJsonLd } from '../components/article/article-json-ld';
import { ArticleSegments } from '../components/article/article-segments';
import { CopyStatusProvider } from '../components/article/copy-status';
import { RelatedReading } from '../components/article/related-reading';
import { breadcrumbJsonLd, faqJsonLd, type JsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { articleTitle } from '../../shared/search-snippet';
import { socialImagePath } from '../../shared/social-image';
import { space } from '../theme/theme';

const Body = styled.div`
  padding-block: ${space.xxl} ${space.section};
`;

export function ArticlePage({ summary, related, body }: ArticlePageData<string | null>) {
  const { siteUrl } = useAppConfig();

  const faqItems = body.segments.flatMap((segment) => (segment.kind === 'faq' ? segment.items : []));
  const jsonLd: JsonLd[] = [
    articleJsonLd(siteUrl, summary),
    breadcrumbJsonLd(siteUrl, [
      { name: 'Home', path: routesPaths.home },
      { name: 'Blog', path: routesPaths.blog },
      { name: summary.title, path: summary.path },
    ]),
  ];
  if (faqItems.length > 0) {
    jsonLd.push(faqJsonLd(faqItems.map((item) => ({ question: item.question, answer: item.answerText }))));
  }

  return (
    <>
      <PageHead
        title={articleTitle(summary, site.brand)}
        description={summary.excerpt}
        keywords={summary.keywords}
        canonicalPath={summary.path}
        ogType="article"
        article={{ publishedTime: summary.published, modifiedTime: summary.updated, section: summary.category }}
        image={{ path: socialImagePath(summary.slug), alt: `${summary.title} (${summary.category}, ${site.brand})` }}
        jsonLd={jsonLd}
      />
      <article data-article={summary.slug}>
        <ArticleHeader summary={summary} />
        <Body>
          <ArticleColumn>
            <CopyStatusProvider>
              <ArticleSegments segments={body.segments} />
            </CopyStatusProvider>
          </ArticleColumn>
        </Body>
      </article>
      <RelatedReading related={related} />
      <ArticleCta cta={summary.cta} />
    </>
  );
}
