import { useId, useRef, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import styled from 'styled-components';
import { color, radius, space } from '../../theme/theme';
import { ShellIcon } from './svg-icon';

export interface AccordionItem {
  question: string;
  /** In the server HTML whether open or not, so crawlers and readers without JavaScript get it. */
  answer: ReactNode;
}

const List = styled.div`
  display: grid;
  gap: ${space.sm};
`;

const Item = styled.details`
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  background: ${color.surface};
  &[open] > summary svg { transform: rotate(90deg); }
`;

const Question = styled.summary`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${space.md};
  padding: ${space.md} ${space.lg};
  border-radius: ${radius.md};
  color: ${color.ink};
  font-weight: 600;
  list-style: none;
  cursor: pointer;
  &::-webkit-details-marker { display: none; }
  &:hover { color: ${color.primary}; }
  svg { transition: transform 200ms ease; flex-shrink: 0; }
`;

const Panel = styled.div`
  padding: 0 ${space.lg} ${space.md};
  color: ${color.inkMuted};
  p:last-child { margin-bottom: 0; }
`;

const KEYS = ['ArrowDown', 'ArrowUp', 'Home', 'End'];

/**
 * Questions that open one at a time and collapse again: native <details> sharing a `name`, so the
 * browser itself keeps one open, toggles with Enter and Space, and works without JavaScript. With
 * JavaScript, Up/Down/Home/End move focus between the questions, as the WAI-ARIA accordion
 * pattern has it, and a browser too old for `name` still closes the others.
 */
export function Accordion({ items }: { items: AccordionItem[] }) {
  const name = useId();
  const list = useRef<HTMLDivElement>(null);
  const questions = () => [...(list.current?.querySelectorAll<HTMLElement>(':scope > details > summary') ?? [])];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!KEYS.includes(event.key)) return;
    const all = questions();
    const index = all.indexOf(event.target as HTMLElement);
    if (index === -1) return;
    const last = all.length - 1;
    const target = { ArrowDown: index === last ? 0 : index + 1, ArrowUp: index === 0 ? last : index - 1, Home: 0, End: last }[event.key] ?? index;
    event.preventDefault();
    all[target]?.focus();
  };

  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const opened = event.currentTarget;
    if (!opened.open) return;
    for (const summary of questions()) {
      const other = summary.parentElement;
      if (other instanceof HTMLDetailsElement && other !== opened) other.open = false;
    }
  };

  return (
    <List ref={list} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <Item key={item.question} name={name} onToggle={onToggle}>
          <Question>
            {item.question}
            <ShellIcon name="arrow-right" size={18} />
          </Question>
          <Panel>{item.answer}</Panel>
        </Item>
      ))}
    </List>
  );
}
