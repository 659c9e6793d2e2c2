import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { color, radius, space, text } from '../../theme/theme';
import { useInternalLinkNavigation } from '../../routing/links';
import { plainList, softPill } from '../ui/layout-primitives';

const Panel = styled.div`
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  background: ${color.surfaceAlt};
  padding: ${space.md} ${space.lg} ${space.lg};
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: space-between;
  gap: ${space.sm};
  margin-bottom: ${space.sm};
`;

const Label = styled.p`
  margin: 0;
  color: ${color.ink};
  font-weight: 700;
`;

const Counter = styled.p`
  margin: 0;
  padding: 0.125rem 0.625rem;
  ${softPill}
  font-size: ${text.xs};
  font-weight: 700;
  font-variant-numeric: tabular-nums;
`;

const List = styled.ul`
  display: grid;
  gap: ${space.xs};
  ${plainList}
`;

const Item = styled.li`
  display: flex;
  align-items: flex-start;
  gap: 0.75rem;
  padding: ${space.sm} 0;
  border-bottom: 1px solid ${color.border};
  &:last-child { border-bottom: 0; padding-bottom: 0; }

  input {
    flex-shrink: 0;
    width: 1.25rem;
    height: 1.25rem;
    margin: 0.2rem 0 0;
    accent-color: ${color.primary};
    cursor: pointer;
  }
  label {
    flex: 1;
    color: ${color.ink};
    line-height: 1.55;
    cursor: pointer;
  }
  input:checked + label {
    color: ${color.inkMuted};
    text-decoration: line-through;
    text-decoration-color: ${color.inkSubtle};
  }
  code {
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }
`;

/**
 * The reader's own to-do list: native checkboxes, uncontrolled and never saved. The count is read
 * from the DOM, which also picks up boxes ticked before the page finished hydrating.
 */
export function ArticleChecklist({ items }: { items: string[] }) {
  const baseId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const [done, setDone] = useState(0);
  const onLinkClick = useInternalLinkNavigation();

  const recount = () => setDone(listRef.current?.querySelectorAll('input:checked').length ?? 0);
  useEffect(recount, []);

  return (
    <Panel>
      <Bar>
        <Label id={`${baseId}-label`}>Checklist</Label>
        <Counter role="status" aria-live="polite">
          {done} of {items.length} done
        </Counter>
      </Bar>
      <List ref={listRef} aria-labelledby={`${baseId}-label`} onClick={onLinkClick}>
        {items.map((item, index) => {
          const inputId = `${baseId}-item-${index}`;
          return (
            <Item key={inputId}>
              <input type="checkbox" id={inputId} onChange={recount} />
              {/* Items are inline HTML from the content build (bold, code, links). */}
              <label htmlFor={inputId} dangerouslySetInnerHTML={{ __html: item }} />
            </Item>
          );
        })}
      </List>
    </Panel>
  );
}
