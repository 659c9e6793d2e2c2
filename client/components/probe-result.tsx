import { useEffect, useState } from 'react';
import styled from 'styled-components';
import type { PagesContent } from '../../shared/content-schema';
import { fillCopy, listOfNames } from '../../shared/copy-template';
import type { ProbeView, ProbeViewAssistant } from '../../shared/visibility-probe';
import { color, radius, space, text } from '../theme/theme';
import { plainList } from './ui/layout-primitives';
import { ResultPanel, ResultStatus, ResultTitle } from './site-check-result';

type Copy = PagesContent['thankYou']['probe'];

/**
 * Two lines in one place, one of them shown: the taller sets the height whichever shows, so the
 * switch when the page's script starts moves nothing below it.
 */
const OneOfTwo = styled.div`
  display: grid;
  margin: 0 0 ${space.md};
  color: ${color.inkMuted};
  > p { grid-area: 1 / 1; margin: 0; }
  > [hidden] { display: block; visibility: hidden; }
`;

const Assistants = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.lg};
  > li { padding-top: ${space.lg}; border-top: 1px solid ${color.border}; }
  h3 { font-size: ${text.lg}; margin: 0 0 ${space.xs}; }
`;

const Count = styled.p`
  margin: 0;
  font-weight: 600;
`;

const Others = styled.p`
  margin: ${space.sm} 0 0;
  color: ${color.inkMuted};
  font-size: ${text.sm};
  overflow-wrap: anywhere;
`;

/** Someone else's words: set apart from ours, and kept as they came, line breaks aside. */
const Example = styled.dl`
  margin: ${space.md} 0 0;
  padding: ${space.md};
  border-left: 3px solid ${color.border};
  border-radius: 0 ${radius.sm} ${radius.sm} 0;
  background: ${color.surfaceAlt};
  font-size: ${text.sm};
  dt { font-weight: 700; }
  dd { margin: 0; overflow-wrap: anywhere; }
  dd + dt { margin-top: ${space.sm}; }
  blockquote { margin: 0; color: ${color.inkMuted}; }
`;

const Caveat = styled.p`
  margin: ${space.lg} 0 0;
  font-size: ${text.sm};
  color: ${color.inkMuted};
`;

/** True once the page's script runs: until then (and without JavaScript) the page can only be reloaded. */
function useScriptRunning(): boolean {
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return running;
}

/** One assistant's part: how often it named the business, whom it named instead, one of its answers. */
function AssistantPart({ copy, assistant }: { copy: Copy; assistant: ProbeViewAssistant }) {
  return (
    <li>
      <h3>{assistant.name}</h3>
      <Count>{assistant.answered > 0 ? fillCopy(copy.named, { named: assistant.named, answered: assistant.answered }) : copy.noAnswers}</Count>
      {assistant.others.length > 0 && (
        <Others>
          {copy.others}: {assistant.others.join(', ')}
        </Others>
      )}
      {/*
        The question and the answer as text: the answer is an assistant's, quoting pages anyone
        can write. React escapes it, so its markup, Markdown and links stay words on the page,
        none of them followed or made a link.
      */}
      {assistant.example && (
        <Example>
          <dt>{copy.asked}</dt>
          <dd>{assistant.example.question}</dd>
          <dt>{copy.answered}</dt>
          <dd>
            <blockquote>{assistant.example.answer}</blockquote>
          </dd>
        </Example>
      )}
    </li>
  );
}

/** What the answers were searched for: the name and where it was read, or the web address alone when the home page gives no name. */
function LookedFor({ copy, searchedFor }: { copy: Copy; searchedFor: ProbeView['searchedFor'] }) {
  if (!searchedFor?.site) return null;
  const { name, from, site } = searchedFor;
  return <ResultStatus>{name === null ? fillCopy(copy.lookedForSite, { site }) : fillCopy(copy.lookedFor, { name, from, site })}</ResultStatus>;
}

/**
 * "What AI assistants say when asked about {keyword}": the visibility probe of the visitor's
 * request, below its site check on the thank-you page, as the page's useCheckStatus keeps it.
 * While it runs, with JavaScript it appears when ready; without, the page says to reload.
 */
export function ProbeResult({ copy, view, slow }: { copy: Copy; view: ProbeView | null; slow: boolean }) {
  const scripted = useScriptRunning();
  if (!view) return null;
  const answering = view.status === 'done' ? view.assistants.filter((assistant) => assistant.answered > 0) : [];
  const answered = answering.reduce((sum, assistant) => sum + assistant.answered, 0);
  const named = answering.reduce((sum, assistant) => sum + assistant.named, 0);
  // Done with no answer at all (every key refused, say) reads as not run, with each assistant's reason below.
  const notRun = view.status === 'skipped' || (view.status === 'done' && answered === 0);
  return (
    <ResultPanel aria-labelledby="probe-title">
      <ResultTitle id="probe-title">{fillCopy(copy.title, { keyword: view.keyword })}</ResultTitle>
      {/* Read out when it changes: the answers arrive while the visitor is on the page. */}
      <div role="status">
        {view.status === 'pending' && <ResultStatus>{copy.pending}</ResultStatus>}
        {view.status === 'done' && !notRun && (
          <ResultStatus>{fillCopy(copy.summary, { assistants: listOfNames(answering.map((assistant) => assistant.name)), named, answered })}</ResultStatus>
        )}
        {notRun && (
          <ResultStatus>
            {copy.skipped}
            {view.status === 'skipped' && view.reason ? `: ${view.reason}` : ''}. {copy.skippedNote}
          </ResultStatus>
        )}
      </div>
      {view.status === 'pending' &&
        (slow ? (
          <OneOfTwo>
            <p>{copy.slow}</p>
          </OneOfTwo>
        ) : (
          <OneOfTwo>
            <p hidden={!scripted}>{copy.pendingScript}</p>
            <p hidden={scripted}>{copy.pendingNoScript}</p>
          </OneOfTwo>
        ))}
      {view.status === 'done' && !notRun && <LookedFor copy={copy} searchedFor={view.searchedFor} />}
      {view.status === 'done' && (
        <>
          <Assistants>
            {view.assistants.map((assistant) => (
              <AssistantPart key={assistant.name} copy={copy} assistant={assistant} />
            ))}
          </Assistants>
          {!notRun && <Caveat>{copy.caveat}</Caveat>}
        </>
      )}
    </ResultPanel>
  );
}
