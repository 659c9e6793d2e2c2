import { useId } from 'react';
import styled, { keyframes } from 'styled-components';
import { color, radius, shadow, space, text } from '../../theme/theme';
import { darkTitleBar, darkWindow } from '../ui/dark-window';
import { Icon } from '../ui/icon';
import { labelText } from '../ui/layout-primitives';

const Window = styled.div`
  ${darkWindow}
  border-radius: ${radius.lg};
  box-shadow: ${shadow.raised};
`;

const TitleBar = styled.div`
  ${darkTitleBar}
`;

const Dots = styled.span`
  display: inline-flex;
  gap: 0.375rem;
  flex-shrink: 0;
  span { width: 0.625rem; height: 0.625rem; border-radius: 50%; }
  span:nth-child(1) { background: ${color.rose}; }
  span:nth-child(2) { background: ${color.amber}; }
  span:nth-child(3) { background: ${color.teal}; }
`;

const Label = styled.p`
  margin: 0;
  color: ${color.onDarkMuted};
  ${labelText}
`;

const Messages = styled.ul`
  display: grid;
  gap: ${space.sm};
  margin: 0;
  padding: ${space.md};
  list-style: none;
`;

const Message = styled.li`
  display: flex;
  justify-content: flex-end;
  align-items: flex-end;
  gap: ${space.sm};
`;

// A customer's question, drawn like the sender's side of a chat: right-aligned, tail bottom-right.
const Bubble = styled.span`
  max-width: 85%;
  padding: 0.625rem 0.875rem;
  border: 1px solid ${color.borderDark};
  border-radius: ${radius.lg} ${radius.lg} ${radius.sm} ${radius.lg};
  background: ${color.surfaceDarkAlt};
  color: ${color.onDark};
  font-size: ${text.sm};
  line-height: 1.45;
`;

const Avatar = styled.span<{ $bot?: boolean }>`
  display: inline-grid;
  place-items: center;
  flex-shrink: 0;
  width: 2rem;
  height: 2rem;
  border-radius: 50%;
  background: ${(p) => (p.$bot ? color.electric : color.borderDark)};
  color: ${(p) => (p.$bot ? color.surfaceDark : color.onDark)};
`;

const Typing = styled.div`
  display: flex;
  align-items: center;
  gap: ${space.sm};
  padding: 0 ${space.md} ${space.md};
`;

const pulse = keyframes`
  0%, 80%, 100% { opacity: 0.35; }
  40% { opacity: 1; }
`;

const TypingDots = styled.span`
  display: inline-flex;
  gap: 0.3rem;
  padding: 0.75rem 0.875rem;
  border-radius: ${radius.lg} ${radius.lg} ${radius.lg} ${radius.sm};
  background: ${color.surfaceDarkAlt};
  border: 1px solid ${color.borderDark};
  span {
    width: 0.4rem;
    height: 0.4rem;
    border-radius: 50%;
    background: ${color.electric};
    animation: ${pulse} 1.4s ease-in-out infinite;
  }
  span:nth-child(2) { animation-delay: 0.2s; }
  span:nth-child(3) { animation-delay: 0.4s; }
`;

/** The example prompts as a chat transcript, with an assistant "typing" its answer. */
export function PromptChat({ label, prompts }: { label: string; prompts: string[] }) {
  const labelId = useId();
  return (
    <Window>
      <TitleBar>
        <Dots aria-hidden="true">
          <span />
          <span />
          <span />
        </Dots>
        <Label id={labelId}>{label}</Label>
      </TitleBar>
      <Messages aria-labelledby={labelId}>
        {prompts.map((prompt) => (
          <Message key={prompt}>
            <Bubble>{prompt}</Bubble>
            <Avatar aria-hidden="true">
              <Icon name="users" size={16} />
            </Avatar>
          </Message>
        ))}
      </Messages>
      {/* Decoration only: the answer never arrives, so nothing here is announced. */}
      <Typing aria-hidden="true">
        <Avatar $bot>
          <Icon name="bot" size={16} />
        </Avatar>
        <TypingDots>
          <span />
          <span />
          <span />
        </TypingDots>
      </Typing>
    </Window>
  );
}
