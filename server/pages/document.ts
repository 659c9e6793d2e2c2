import { APP_CONFIG_ELEMENT_ID, type AppConfig } from '../../shared/app-config';
import { escapeHtml } from '../../shared/escape-html';
import { FORM_STATE_ELEMENT_ID, type FormState } from '../../shared/forms/form-contract';
import { headTags, type HeadData } from '../../shared/head-tags';
import { scriptSafeJson } from '../../shared/json-ld';
import { PAGE_MODULES_ELEMENT_ID } from '../../shared/page-modules';
import { siteJsonLd } from '../../shared/site-json-ld';
import { cspHash } from '../http/security-headers';
import type { AssetManifest } from './asset-manifest';

export interface DocumentParts {
  head: HeadData;
  bodyHtml: string;
  /** styled-components' rules for this page, as its ServerStyleSheet collected them. */
  css: string;
  styledVersion: string;
  config: AppConfig;
  /** Null for pages that must not hydrate (the 500 page). */
  assets: AssetManifest | null;
  /** The route's path in the route table, whose page chunks are loaded with the app's. */
  routePath?: string;
  /** Per-visitor form state (CSRF token, values, errors), for form pages only. */
  formState?: FormState;
  /**
   * False for a document that carries no script element at all (a report the agency delivers):
   * not even the site's Organization and WebSite JSON-LD, which a private page has no use for.
   */
  structuredData?: boolean;
}

export interface RenderedDocument {
  html: string;
  scriptHashes: string[];
  styleHashes: string[];
}

/** The whole HTML document around React's body markup, with the hashes its CSP must allow. */
export function renderDocument({ head, bodyHtml, css, styledVersion, config, assets, routePath, formState, structuredData = true }: DocumentParts): RenderedDocument {
  const scriptHashes: string[] = [];
  const styleHashes: string[] = [];
  const tags = headTags(head, config.siteUrl).map((tag) => {
    const attributes = Object.entries(tag.attributes)
      .map(([key, value]) => ` ${key}="${escapeHtml(value)}"`)
      .join('');
    if (tag.name === 'script') {
      const text = tag.text ?? '';
      scriptHashes.push(cspHash(text));
      return `<script${attributes} data-page-head>${text}</script>`;
    }
    return `<${tag.name}${attributes} data-page-head>`;
  });
  const siteGraph = structuredData ? scriptSafeJson(siteJsonLd(config.siteUrl)) : null;
  if (siteGraph !== null) scriptHashes.push(cspHash(siteGraph));
  if (css) styleHashes.push(cspHash(css));

  const scripts: string[] = [];
  if (assets) {
    // Inert in a template until the entry script moves them into the head, once the page has been
    // painted (client/entry.client.ts); the page's own chunks too, or the browser would only find
    // them once the app had run.
    const pageChunks = routePath === undefined ? [] : (assets.routes[routePath] ?? []);
    const preloads = [...assets.app, ...pageChunks].map((chunk) => `<link rel="modulepreload" href="${chunk.file}" integrity="${chunk.integrity}">`);
    scripts.push(`<template id="${PAGE_MODULES_ELEMENT_ID}">${preloads.join('')}</template>`);
    scriptHashes.push(cspHash(assets.entry.script));
    scripts.push(`<script type="module">${assets.entry.script}</script>`);
  }
  const configJson = scriptSafeJson(config);

  const html = [
    '<!doctype html>',
    '<html lang="en-GB">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    ...tags,
    siteGraph === null ? '' : `<script type="application/ld+json">${siteGraph}</script>`,
    '<meta name="theme-color" content="#0b1026">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="alternate" type="application/rss+xml" title="Blog" href="/rss.xml">',
    css ? `<style data-styled="true" data-styled-version="${escapeHtml(styledVersion)}">${css}</style>` : '',
    '</head>',
    '<body>',
    `<div id="root">${bodyHtml}</div>`,
    assets ? `<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${configJson}</script>` : '',
    assets && formState ? `<script type="application/json" id="${FORM_STATE_ELEMENT_ID}">${scriptSafeJson(formState)}</script>` : '',
    ...scripts,
    '</body>',
    '</html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { html, scriptHashes, styleHashes };
}
