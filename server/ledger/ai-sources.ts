import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config';
import bundled from './ai-sources.json';

type AgentKind = 'training' | 'search' | 'user';

const sourcesSchema = z.object({
  agents: z
    .array(z.object({ match: z.string().trim().min(3), family: z.string().trim().min(1), kind: z.enum(['training', 'search', 'user']) }))
    .min(1),
  assistants: z
    .array(
      z.object({
        name: z.string().trim().min(1),
        hosts: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+$/, 'must be a host name')).min(1),
        utmSources: z.array(z.string().trim().toLowerCase().min(1)).default([]),
      }),
    )
    .min(1),
});

export type AiSources = z.infer<typeof sourcesSchema>;

/**
 * The lists of AI user agents and assistants: the file shipped with the site, or the one
 * AI_SOURCES_FILE names (ops can keep their own copy up to date without a new build).
 */
export function loadAiSources(file?: string): AiSources {
  let data: unknown = bundled;
  if (file) {
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError(`Invalid configuration: AI_SOURCES_FILE=${JSON.stringify(file)} cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const result = sourcesSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${file ? `AI_SOURCES_FILE=${JSON.stringify(file)}` : 'server/ledger/ai-sources.json'}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return result.data;
}

export interface AgentMatch {
  family: string;
  agent: string;
  kind: AgentKind;
}

/** Bounded: the header is the client's to choose, and a scanner can send a new one each time. */
const REMEMBERED_MAX = 512;

/** Which AI agent a request comes from, and which AI assistant sent a visitor, if any. */
export interface AiClassifier {
  agent(userAgent: string | undefined): AgentMatch | null;
  assistant(referer: string | undefined, utmSource: string | null): string | null;
}

export function aiClassifier(sources: AiSources): AiClassifier {
  const agents = sources.agents.map((entry) => ({ needle: entry.match.toLowerCase(), match: { family: entry.family, agent: entry.match, kind: entry.kind } }));
  const byHost = new Map(sources.assistants.flatMap((assistant) => assistant.hosts.map((host) => [host, assistant.name] as const)));
  const byUtm = new Map(sources.assistants.flatMap((assistant) => assistant.utmSources.map((utm) => [utm, assistant.name] as const)));
  const remembered = new Map<string, AgentMatch | null>();
  return {
    agent(userAgent) {
      if (!userAgent) return null;
      let match = remembered.get(userAgent);
      if (match === undefined) {
        const lower = userAgent.toLowerCase();
        match = agents.find((entry) => lower.includes(entry.needle))?.match ?? null;
        if (remembered.size >= REMEMBERED_MAX) remembered.clear();
        remembered.set(userAgent, match);
      }
      return match;
    },
    assistant(referer, utmSource) {
      if (utmSource) {
        const named = byUtm.get(utmSource.trim().toLowerCase());
        if (named) return named;
      }
      if (!referer) return null;
      try {
        return byHost.get(new URL(referer).hostname.toLowerCase()) ?? null;
      } catch {
        return null;
      }
    },
  };
}
