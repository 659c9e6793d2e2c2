import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Link, NavLink } from '../../routing/links';
import styled from 'styled-components';
import { routesPaths, site } from '../../../shared/site';
import { color, layout, mediaDown, mediaUp, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { ShellIcon } from '../ui/svg-icon';
import { Container } from '../ui/layout-primitives';

const navLinks = [
  { to: routesPaths.home, label: 'Home' },
  { to: routesPaths.howItWorks, label: 'How It Works' },
  { to: routesPaths.caseStudies, label: 'Case Studies' },
  { to: routesPaths.blog, label: 'Blog' },
] as const;

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 40;
  background: rgba(255, 255, 255, 0.94);
  border-bottom: 1px solid ${color.border};
  @supports (backdrop-filter: blur(8px)) { backdrop-filter: blur(8px); }
`;

const Inner = styled(Container)`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${space.md};
  height: ${layout.headerHeight};
`;

const Brand = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  font-weight: 800;
  font-size: 1.2rem;
  color: ${color.ink};
  text-decoration: none;
  &:hover { color: ${color.primary}; }
`;

const Mark = styled.span`
  display: inline-grid;
  place-items: center;
  width: 2rem;
  height: 2rem;
  border-radius: 0.6rem;
  background: linear-gradient(135deg, ${color.primary}, ${color.accent});
  color: #fff;
  svg { width: 1.1rem; height: 1.1rem; }
`;

const DesktopNav = styled.nav`
  ${mediaDown('md')} { display: none; }
  ul { display: flex; gap: ${space.xs}; list-style: none; margin: 0; padding: 0; }
`;

const NavItem = styled(NavLink)`
  display: block;
  padding: 0.5rem 0.75rem;
  white-space: nowrap;
  /* Between the medium and large breakpoints the bar is tight: four links, the brand and the button. */
  ${mediaUp('md')} { @media (max-width: 1023.98px) { padding-inline: 0.5rem; } }
  border-radius: 0.5rem;
  color: ${color.inkMuted};
  font-size: ${text.sm};
  font-weight: 600;
  text-decoration: none;
  &:hover { color: ${color.ink}; background: ${color.surfaceAlt}; }
  &[aria-current='page'] { color: ${color.primary}; }
`;

const DesktopCta = styled.div`
  ${mediaDown('md')} { display: none; }
  a { white-space: nowrap; }
`;

const MenuToggle = styled.button`
  display: inline-grid;
  place-items: center;
  width: 2.75rem;
  height: 2.75rem;
  border: 1px solid ${color.border};
  border-radius: 0.6rem;
  background: ${color.surface};
  color: ${color.ink};
  cursor: pointer;
  ${mediaUp('md')} { display: none; }
`;

const MobileMenu = styled.div`
  border-top: 1px solid ${color.border};
  background: ${color.surface};
  padding-block: ${space.md};
  ${mediaUp('md')} { display: none; }
  ul { list-style: none; margin: 0 0 ${space.md}; padding: 0; }
  ${NavItem} { padding: 0.75rem 0.5rem; font-size: ${text.base}; }
`;

export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const { pathname } = useLocation();

  // A navigation from inside the menu closes it.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <Bar>
      <Inner>
        <Brand to={routesPaths.home} aria-label={`${site.brand} home`}>
          <Mark aria-hidden="true">
            <ShellIcon name="message" />
          </Mark>
          {site.brand}
        </Brand>
        <DesktopNav aria-label="Main">
          <ul>
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavItem to={link.to}>
                  {link.label}
                </NavItem>
              </li>
            ))}
          </ul>
        </DesktopNav>
        <DesktopCta>
          <Button to={routesPaths.freeAudit} variant="gradient">
            Book Free Audit
          </Button>
        </DesktopCta>
        <MenuToggle
          ref={toggleRef}
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          <ShellIcon name={open ? 'close' : 'menu'} />
        </MenuToggle>
      </Inner>
      <MobileMenu id={menuId} hidden={!open}>
        <Container>
          <nav aria-label="Mobile">
            <ul>
              {navLinks.map((link) => (
                <li key={link.to}>
                  <NavItem to={link.to} onClick={() => setOpen(false)}>
                    {link.label}
                  </NavItem>
                </li>
              ))}
            </ul>
          </nav>
          <Button to={routesPaths.freeAudit} variant="gradient" block onClick={() => setOpen(false)}>
            Book Free Audit
          </Button>
        </Container>
      </MobileMenu>
    </Bar>
  );
}
