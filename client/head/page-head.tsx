import { createContext, useContext, useEffect } from 'react';
import { headTags, type HeadData } from '../../shared/head-tags';
import { useAppConfig } from '../app-config';

export type { HeadData };

/** On the server, the document reads the head that the rendered page declared. */
export interface HeadCollector {
  head?: HeadData;
}
const HeadCollectorContext = createContext<HeadCollector | null>(null);
export const HeadCollectorProvider = HeadCollectorContext.Provider;

const MANAGED = 'data-page-head';

/**
 * The one owner of every page's <head>. The server renders the head from what this component
 * collects (server/pages/document.ts); in the browser it rewrites the same tags after a client
 * navigation, so that title, description, canonical, social tags and JSON-LD follow the page.
 */
export function PageHead(props: HeadData) {
  const collector = useContext(HeadCollectorContext);
  const { siteUrl } = useAppConfig();
  if (collector) collector.head = props;

  useEffect(() => {
    const tags = headTags(props, siteUrl);
    document.title = props.title;
    for (const old of document.head.querySelectorAll(`[${MANAGED}]`)) old.remove();
    const anchor = document.head.querySelector('title');
    const fragment = document.createDocumentFragment();
    for (const tag of tags) {
      const element = document.createElement(tag.name);
      for (const [key, value] of Object.entries(tag.attributes)) element.setAttribute(key, value);
      if (tag.text !== undefined) element.textContent = tag.text;
      element.setAttribute(MANAGED, '');
      fragment.append(element);
    }
    anchor?.after(fragment);
  });
  return null;
}
