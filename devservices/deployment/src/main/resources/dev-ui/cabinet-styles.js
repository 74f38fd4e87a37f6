import { css } from 'lit';

/** Styles shared by the Cabinet pages: compact tables in the Dev UI's Lumo colours. */
export const cabinetStyles = css`
    :host { display: block; padding: 10px 20px; font-size: var(--lumo-font-size-s); }
    h3 { margin: 16px 0 8px; font-size: var(--lumo-font-size-m); }
    table { border-collapse: collapse; width: 100%; margin-bottom: 12px; }
    th, td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--lumo-contrast-10pct); }
    th { color: var(--lumo-contrast-70pct); font-weight: 600; }
    code, .mono { font-family: monospace; font-size: 95%; }
    .error { color: var(--lumo-error-text-color); }
    .muted { color: var(--lumo-contrast-60pct); }
    .bar { display: flex; gap: 8px; align-items: end; flex-wrap: wrap; margin-bottom: 8px; }
    button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--lumo-contrast-30pct);
             background: var(--lumo-contrast-5pct); color: var(--lumo-body-text-color); cursor: pointer; }
    button.primary { background: var(--lumo-primary-color); color: var(--lumo-primary-contrast-color); border: none; }
    input, select { font: inherit; padding: 4px 6px; border-radius: 4px; border: 1px solid var(--lumo-contrast-30pct);
             background: var(--lumo-base-color); color: var(--lumo-body-text-color); }
    label { display: flex; flex-direction: column; gap: 2px; color: var(--lumo-contrast-70pct); }
    a.link { color: var(--lumo-primary-text-color); cursor: pointer; text-decoration: underline; }
    tr.selected td { background: var(--lumo-primary-color-10pct); }
    pre { white-space: pre-wrap; word-break: break-all; margin: 0; }
`;
