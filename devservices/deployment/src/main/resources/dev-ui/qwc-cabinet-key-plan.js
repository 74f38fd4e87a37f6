import { LitElement, html, css } from 'lit';
import { keyPlan } from 'build-time-data';
import { cabinetStyles } from './cabinet-styles.js';

/**
 * The key plan, drawn from build-time data read out of the application's KeyPlan: each partition-key template with the
 * item types it holds in sort-key order, each GSI with what it overloads, and every access pattern's key condition.
 */
export class QwcCabinetKeyPlan extends LitElement {

    static styles = [cabinetStyles, css`
        .partitions { display: flex; flex-wrap: wrap; gap: 10px; }
        .drawer { border: 1px solid var(--lumo-contrast-20pct); border-radius: 6px; min-width: 260px; }
        .drawer h4 { margin: 0; padding: 6px 10px; background: var(--lumo-contrast-5pct); font-family: monospace; }
        .drawer ol { margin: 0; padding: 6px 10px 8px 30px; }
        .drawer li { padding: 2px 0; }
        .sk { font-family: monospace; color: var(--lumo-primary-text-color); }
        .condition { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
    `];

    render() {
        if (keyPlan.error) {
            return html`<p class="error" data-testid="key-plan-error">${keyPlan.error}</p>`;
        }
        const gsis = keyPlan.indexes.filter(index => index.indexName);
        return html`
            <section data-testid="key-plan">
                <h3>Table: partition-key templates (<code>${keyPlan.indexes[0].pkAttribute}</code>), item types in sort-key order (<code>${keyPlan.indexes[0].skAttribute}</code>)</h3>
                ${this._partitions(keyPlan.partitions)}
                ${gsis.map(index => html`
                    <h3>${index.name} (<code>${index.pkAttribute}</code> / <code>${index.skAttribute}</code>): what it overloads</h3>
                    ${this._partitions(index.partitions)}
                    <p class="condition">Projected attributes: ${index.projected.join(', ')}</p>`)}
                <h3>Access patterns</h3>
                <table data-testid="access-patterns">
                    <thead><tr><th>#</th><th>Access pattern</th><th>Endpoint</th><th>Index</th><th>Key condition</th><th>Item types</th></tr></thead>
                    <tbody>${keyPlan.accessPatterns.map(pattern => html`
                        <tr>
                            <td>${pattern.number}</td><td>${pattern.name}</td><td><code>${pattern.endpoint}</code></td>
                            <td>${pattern.index}</td><td><code>${pattern.keyCondition}</code></td>
                            <td>${pattern.itemTypes.join(', ')}</td>
                        </tr>`)}
                    </tbody>
                </table>
            </section>`;
    }

    _partitions(partitions) {
        const types = Object.fromEntries(keyPlan.itemTypes.map(type => [type.name, type]));
        return html`<div class="partitions">${partitions.map(partition => html`
            <div class="drawer" data-testid="partition">
                <h4>${partition.pk}</h4>
                <ol>${partition.itemTypes.map(member => html`
                    <li title="${(types[member.name]?.attributes || []).join(', ')}${types[member.name]?.notes ? '\n' + types[member.name].notes : ''}">
                        <span class="sk">${member.sk}</span> <b>${member.name}</b>
                        ${member.condition ? html`<span class="condition">(${member.condition})</span>` : ''}
                    </li>`)}
                </ol>
            </div>`)}
        </div>`;
    }
}
customElements.define('qwc-cabinet-key-plan', QwcCabinetKeyPlan);
