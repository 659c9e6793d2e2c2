import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { color, radius, space, text } from '../../theme/theme';
import { ShellIcon } from './svg-icon';

export interface AccordionItem {
  question: string;
  /** Rendered into the server HTML whether open or not, so crawlers and no-JS readers get it. */
  answer: ReactNode;
}

const List = styled.div`
  display: grid;
  gap: ${space.sm};
`;

const Item = styled.div`
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  background: ${color.surface};
`;

const Heading = styled.h3`
  margin: 0;
  font-size: ${text.base};
`;

const Trigger = styled.button`
  display: flex;
  width: 100%;
  align-items: center;
  justify-content: space-between;
  gap: ${space.md};
  padding: ${space.md} ${space.lg};
  border: 0;
  border-radius: ${radius.md};
  background: transparent;
  color: ${color.ink};
  font-weight: 600;
  text-align: left;
  cursor: pointer;
  &:hover { color: ${color.primary}; }
  svg { transition: transform 200ms ease; flex-shrink: 0; }
  &[aria-expanded='true'] svg { transform: rotate(90deg); }
`;

const Panel = styled.div`
  padding: 0 ${space.lg} ${space.md};
  color: ${color.inkMuted};
  p:last-child { margin-bottom: 0; }
`;

/**
 * The WAI-ARIA accordion pattern (https://www.w3.org/WAI/ARIA/apg/patterns/accordion/): one item
 * open at a time, the open one collapses again, Enter and Space toggle (native buttons), and
 * Up/Down/Home/End move focus between the headers. Without JavaScript the document's <noscript>
 * style shows every panel (data-accordion-panel), so each answer stays readable.
 */
export function Accordion({ items, defaultOpen = null }: { items: AccordionItem[]; defaultOpen?: number | null }) {
  const [open, setOpen] = useState<number | null>(defaultOpen);
  const baseId = useId();
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const target = { ArrowDown: index === last ? 0 : index + 1, ArrowUp: index === 0 ? last : index - 1, Home: 0, End: last }[
      event.key
    ];
    if (target === undefined) return;
    event.preventDefault();
    triggers.current[target]?.focus();
  };

  return (
    <List>
      {items.map((item, index) => {
        const expanded = open === index;
        const triggerId = `${baseId}-trigger-${index}`;
        const panelId = `${baseId}-panel-${index}`;
        return (
          <Item key={item.question}>
            <Heading>
              <Trigger
                ref={(node) => {
                  triggers.current[index] = node;
                }}
                id={triggerId}
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : index)}
                onKeyDown={(event) => onKeyDown(event, index)}
              >
                {item.question}
                <ShellIcon name="arrow-right" size={18} />
              </Trigger>
            </Heading>
            <Panel id={panelId} role="region" aria-labelledby={triggerId} hidden={!expanded} data-accordion-panel="">
              {item.answer}
            </Panel>
          </Item>
        );
      })}
    </List>
  );
}
