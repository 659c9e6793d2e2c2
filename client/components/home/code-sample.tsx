import styled from 'styled-components';
import { color, font, radius, space, text } from '../../theme/theme';
import { darkTitleBar, darkWindow } from '../ui/dark-window';
import { Icon } from '../ui/icon';

const Figure = styled.figure`
  /* A grid child may not shrink below its content unless told; without this a long line widens the page. */
  min-width: 0;
  margin: 0;
  ${darkWindow}
  border-radius: ${radius.md};
`;

const Caption = styled.figcaption`
  ${darkTitleBar}
  color: ${color.onDark};
  font-family: ${font.mono};
  font-size: ${text.sm};
  font-weight: 600;
  svg { color: ${color.electric}; }
`;

const Pre = styled.pre`
  margin: 0;
  padding: ${space.md};
  overflow-x: auto;
  color: ${color.onDark};
  font-family: ${font.mono};
  font-size: ${text.xs};
  line-height: 1.6;
  white-space: pre;
  tab-size: 2;
  code { font: inherit; }
  &:focus-visible { outline-offset: -3px; }
`;

/**
 * A file's text in a labelled panel. The <pre> scrolls sideways on narrow screens, so it takes
 * focus: keyboard users can then scroll it with the arrow keys (WCAG 2.1.1).
 */
export function CodeSample({ fileName, code }: { fileName: string; code: string }) {
  return (
    <Figure>
      <Caption>
        <Icon name="file" size={16} />
        {fileName}
      </Caption>
      <Pre tabIndex={0} role="region" aria-label={`${fileName} example`}>
        <code>{code.trimEnd()}</code>
      </Pre>
    </Figure>
  );
}
