import { createTheme } from '@mui/material';

const PRIMARY = '#1565c0';

/**
 * Keyboard focus (issue 11): every ButtonBase (buttons, icon buttons, tabs, chips, list and
 * menu items, the header's account button) draws a 2 px outline in the element's own text
 * colour when focused from the keyboard (:focus-visible), instead of MUI's faint tint;
 * elements whose text sits on a filled background (contained buttons) use the primary colour.
 */
const FOCUS_RING = { outline: '2px solid currentColor', outlineOffset: 2 } as const;

export const theme = createTheme({
  palette: {
    primary: { main: PRIMARY },
    // MUI's default orange (#ed6c02) is 3:1 on white: outlined warning buttons failed axe's
    // contrast check. This amber is 5:1 on white and under white text.
    warning: { main: '#b45309', contrastText: '#fff' },
    background: { default: '#f6f8fa' },
  },
  shape: { borderRadius: 6 },
  components: {
    // Users who ask their system for reduced motion (WCAG 2.3.3) get no animation: spinners and
    // skeletons stand still, transitions and ripples end at once. It also spares the CPU of the
    // e2e browser, which asks for it (e2e/playwright.config.ts).
    MuiCssBaseline: {
      styleOverrides: {
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { contained: { '&.Mui-focusVisible': { outlineColor: PRIMARY } } },
    },
    MuiChip: { styleOverrides: { root: { '&.Mui-focusVisible': { ...FOCUS_RING, outlineColor: PRIMARY } } } },
    MuiTab: { styleOverrides: { root: { '&.Mui-focusVisible': { ...FOCUS_RING, outlineOffset: -2 } } } },
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': { ...FOCUS_RING, outlineOffset: -2 } } } },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': { ...FOCUS_RING, outlineOffset: -2 } } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
  },
});
