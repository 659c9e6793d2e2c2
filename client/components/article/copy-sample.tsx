import { useRef, useState } from 'react';
import styled from 'styled-components';
import { color, font, radius, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { useCopyStatus } from './copy-status';

const sampleLabels: Record<string, string> = { robots: 'robots.txt', llms: 'llms.txt' };

function sampleLabel(id: string): string {
  return sampleLabels[id] ?? id;
}

const Panel = styled.div`
  border: 1px solid ${color.borderDark};
  border-radius: ${radius.md};
  background: ${color.surfaceDark};
  color: ${color.onDark};
  overflow: hidden;
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${space.sm};
  padding: ${space.sm} ${space.sm} ${space.sm} ${space.md};
  border-bottom: 1px solid ${color.borderDark};
  background: ${color.surfaceDarkAlt};
`;

const Label = styled.p`
  display: inline-flex;
  align-items: center;
  gap: ${space.sm};
  margin: 0;
  color: ${color.onDark};
  font-family: ${font.mono};
  font-size: ${text.sm};
  font-weight: 600;
  svg { width: 1rem; height: 1rem; color: ${color.onDarkMuted}; }
`;

/* A fixed width so that 'Copy' -> 'Copied!' does not move anything. */
const CopyButton = styled(Button)`
  min-width: 6.75rem;
`;

const Code = styled.pre`
  margin: 0;
  padding: ${space.md} ${space.lg};
  overflow-x: auto;
  color: ${color.onDark};
  font-family: ${font.mono};
  font-size: ${text.sm};
  line-height: 1.6;
  tab-size: 4;
  &:focus-visible { outline: 3px solid ${color.focus}; outline-offset: -3px; }
  code { font-family: inherit; }
`;

const Hint = styled.p`
  margin: 0;
  padding: ${space.sm} ${space.md};
  border-top: 1px solid ${color.borderDark};
  color: ${color.onDark};
  font-size: ${text.sm};
`;

/** Selects the sample so the reader can copy it by hand when the Clipboard API is refused. */
function selectContents(node: Node | null) {
  const selection = window.getSelection();
  if (!node || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(node);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** A sample file from a `:::copy` block, copied byte for byte by its button. */
export function CopySample({ sampleKey, id, text: sample }: { sampleKey: string; id: string; text: string }) {
  const { copiedKey, markCopied } = useCopyStatus();
  const [failed, setFailed] = useState(false);
  const codeRef = useRef<HTMLElement>(null);
  const label = sampleLabel(id);
  const copied = copiedKey === sampleKey;

  const copy = async () => {
    try {
      // navigator.clipboard is missing outside secure contexts; the TypeError lands in catch.
      await navigator.clipboard.writeText(sample);
      setFailed(false);
      markCopied(sampleKey);
    } catch {
      selectContents(codeRef.current);
      setFailed(true);
    }
  };

  const status = copied ? `${label} copied to the clipboard` : failed ? 'Press Ctrl+C to copy' : '';

  return (
    <Panel>
      <Bar>
        <Label>
          <Icon name="file" />
          {label}
        </Label>
        <CopyButton variant="electric" size="sm" onClick={copy}>
          <Icon name={copied ? 'check' : 'copy'} />
          {copied ? 'Copied!' : 'Copy'}
          <span className="visually-hidden"> {label}</span>
        </CopyButton>
      </Bar>
      <Code tabIndex={0} role="region" aria-label={`${label} sample`}>
        <code ref={codeRef}>{sample}</code>
      </Code>
      {failed && <Hint aria-hidden="true">Press Ctrl+C to copy</Hint>}
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </Panel>
  );
}
