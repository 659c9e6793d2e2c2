import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from '../../routing/links';
import styled, { css } from 'styled-components';
import { color, radius, text } from '../../theme/theme';

/** The variants and sizes the site's pages use. */
type ButtonVariant = 'default' | 'destructive' | 'outline' | 'ghost' | 'gradient' | 'hero' | 'electric' | 'neon';
type ButtonSize = 'default' | 'sm' | 'lg' | 'xl';

interface StyleProps {
  $variant: ButtonVariant;
  $size: ButtonSize;
  $block: boolean;
}

const variantStyles: Record<ButtonVariant, ReturnType<typeof css>> = {
  default: css`background: ${color.primary}; color: #fff; &:hover { background: ${color.primaryHover}; color: #fff; }`,
  destructive: css`background: ${color.destructive}; color: #fff; &:hover { background: #991b1b; color: #fff; }`,
  outline: css`background: transparent; color: ${color.ink}; border-color: ${color.border};
    &:hover { background: ${color.surfaceAlt}; color: ${color.ink}; }`,
  ghost: css`background: transparent; color: ${color.ink}; &:hover { background: ${color.surfaceAlt}; color: ${color.ink}; }`,
  gradient: css`background: linear-gradient(135deg, ${color.primary}, ${color.accent}); color: #fff;
    &:hover { filter: brightness(1.1); color: #fff; }`,
  hero: css`background: #fff; color: ${color.primaryHover}; box-shadow: 0 10px 30px rgba(0, 0, 0, 0.25);
    &:hover { background: ${color.primarySoft}; color: ${color.primaryHover}; }`,
  electric: css`background: ${color.electric}; color: ${color.surfaceDark}; &:hover { background: #67e8f9; color: ${color.surfaceDark}; }`,
  neon: css`background: transparent; color: ${color.onDark}; border-color: ${color.electric};
    box-shadow: 0 0 0 1px ${color.electric}, 0 0 18px rgba(34, 211, 238, 0.35);
    &:hover { background: rgba(34, 211, 238, 0.12); color: ${color.onDark}; }`,
};

const sizeStyles: Record<ButtonSize, ReturnType<typeof css>> = {
  default: css`min-height: 2.75rem; padding: 0.5rem 1.125rem; font-size: ${text.sm};`,
  sm: css`min-height: 2.25rem; padding: 0.375rem 0.875rem; font-size: ${text.xs};`,
  lg: css`min-height: 3rem; padding: 0.625rem 1.5rem; font-size: ${text.base};`,
  xl: css`min-height: 3.5rem; padding: 0.75rem 2rem; font-size: ${text.lg};`,
};

const buttonStyle = css<StyleProps>`
  display: ${(p) => (p.$block ? 'flex' : 'inline-flex')};
  width: ${(p) => (p.$block ? '100%' : 'auto')};
  align-items: center;
  justify-content: center;
  gap: 0.5rem;
  border: 1px solid transparent;
  border-radius: ${radius.md};
  font-weight: 600;
  line-height: 1.2;
  text-align: center;
  text-decoration: none;
  cursor: pointer;
  transition: background-color 150ms ease, filter 150ms ease, box-shadow 150ms ease;
  ${(p) => variantStyles[p.$variant]}
  ${(p) => sizeStyles[p.$size]}
  &:disabled, &[aria-disabled='true'] { opacity: 0.6; cursor: not-allowed; }
  svg { width: 1.1em; height: 1.1em; flex-shrink: 0; }
`;

const StyledButton = styled.button<StyleProps>`${buttonStyle}`;
const StyledLink = styled(Link)<StyleProps>`${buttonStyle}`;
const StyledAnchor = styled.a<StyleProps>`${buttonStyle}`;

interface CommonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  children: ReactNode;
}

type ButtonProps = CommonProps &
  (
    | ({ to: string; href?: never } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>)
    | ({ href: string; to?: never; external?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>)
    | ({ to?: never; href?: never } & ButtonHTMLAttributes<HTMLButtonElement>)
  );

/**
 * The one button: a <button>, a client-side route link (`to`), or a plain link (`href`;
 * `external` opens it in a new tab without giving the opened page a handle on ours).
 */
export function Button({ variant = 'default', size = 'default', block = false, children, ...rest }: ButtonProps) {
  const style = { $variant: variant, $size: size, $block: block };
  if ('to' in rest && rest.to !== undefined) {
    const { to, ...anchor } = rest;
    return <StyledLink to={to} {...style} {...anchor}>{children}</StyledLink>;
  }
  if ('href' in rest && rest.href !== undefined) {
    const { external, ...anchor } = rest as { external?: boolean } & AnchorHTMLAttributes<HTMLAnchorElement>;
    const newTab = external ? { target: '_blank', rel: 'noopener noreferrer' } : {};
    return (
      <StyledAnchor {...style} {...newTab} {...anchor}>
        {children}
        {external && <span className="visually-hidden"> (opens in a new tab)</span>}
      </StyledAnchor>
    );
  }
  const { type = 'button', ...button } = rest as ButtonHTMLAttributes<HTMLButtonElement>;
  return <StyledButton type={type} {...style} {...button}>{children}</StyledButton>;
}
