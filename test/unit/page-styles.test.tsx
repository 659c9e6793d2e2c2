import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import styled, { createGlobalStyle, css, keyframes, ServerStyleSheet } from 'styled-components';
import { CollectStyles } from '../../server/pages/page-styles';

const Global = createGlobalStyle`
  body { margin: 0; }
`;
const pulse = keyframes`
  from { opacity: 0.4; }
  to { opacity: 1; }
`;
const Panel = styled.section`
  padding: 1rem;
  & > p { margin: 0; }
  @media (min-width: 40em) { padding: 2rem; }
`;
// The same CSS as Panel's, under another class name: its rules must carry its own selector.
const Aside = styled.aside`
  padding: 1rem;
  & > p { margin: 0; }
  @media (min-width: 40em) { padding: 2rem; }
`;
const Field = styled.input<{ $invalid: boolean }>`
  border: 1px solid ${({ $invalid }) => ($invalid ? '#b00020' : '#555')};
  ${({ $invalid }) => $invalid && css`animation: ${pulse} 1s;`}
`;

function Page({ invalid }: { invalid: boolean }) {
  return (
    <>
      <Global />
      <Panel>
        <p>Text</p>
        <Field $invalid={invalid} aria-invalid={invalid} />
      </Panel>
      <Aside>
        <p>More</p>
      </Aside>
    </>
  );
}

/** A page's markup and CSS, collected by styled-components itself or through the memo. */
function render(page: ReactElement, memoised: boolean) {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(memoised ? <CollectStyles sheet={sheet}>{page}</CollectStyles> : sheet.collectStyles(page));
    return { html, css: sheet.instance.toString() };
  } finally {
    sheet.seal();
  }
}

describe('page styles collected through the memoised stylis', () => {
  it('are the markup and CSS styled-components collects itself, render after render, whatever the props', () => {
    for (const invalid of [false, true, false, true]) {
      const own = render(<Page invalid={invalid} />, false);
      if (invalid) expect(own.css).toContain('@keyframes');
      expect(render(<Page invalid={invalid} />, true)).toEqual(own);
    }
    expect(render(<Page invalid />, true).css).not.toBe(render(<Page invalid={false} />, true).css);
  });
});
