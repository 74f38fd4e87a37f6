import { LitElement, html, css } from 'lit';
import { keyPlan, capacity } from 'build-time-data';
import { cabinetStyles } from './cabinet-styles.js';

/**
 * The key plan, drawn from build-time data read out of the application's KeyPlan: each partition-key template with the
 * item types it holds in sort-key order, each GSI with what it overloads, and every access pattern's key condition;
 * and what each event and read costs in DynamoDB's units (docs/capacity.md's figures, which the application carries).
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
                    <thead><tr><th>#</th><th>Access pattern</th><th>Endpoint</th><th>Index</th><th>Key condition</th><th>Item types</th><th>RU, page of 20 / 100</th></tr></thead>
                    <tbody>${keyPlan.accessPatterns.map(pattern => html`
                        <tr>
                            <td>${pattern.number}</td><td>${pattern.name}</td><td><code>${pattern.endpoint}</code></td>
                            <td>${pattern.index}</td><td><code>${pattern.keyCondition}</code></td>
                            <td>${pattern.itemTypes.join(', ')}</td>
                            <td>${this._pageUnits(pattern.number)}</td>
                        </tr>`)}
                    </tbody>
                </table>
                ${this._capacity()}
            </section>`;
    }

    /** The capacity model's figures, or nothing when the application carries none. */
    _figures() {
        return capacity ? JSON.parse(capacity) : null;
    }

    _pageUnits(number) {
        const row = this._figures()?.accessPatterns.find(pattern => pattern.number === number);
        return row ? `${row.defaultPageUnits} / ${row.maxPageUnits}` : '';
    }

    _capacity() {
        const figures = this._figures();
        if (!figures) {
            return '';
        }
        return html`
            <h3>What each event costs (docs/capacity.md)</h3>
            <table data-testid="capacity-events">
                <thead><tr><th>Event type</th><th>Store calls</th><th>Rounds</th><th>Most rounds</th><th>Table WU</th><th>Index WU</th><th>RU</th><th>Settled after (batch end)</th><th>$ per million (on demand)</th></tr></thead>
                <tbody>${figures.events.map(event => html`
                    <tr>
                        <td>${event.type}</td><td>${event.callCount}: ${event.calls}</td><td>${event.rounds}</td><td>${event.mostRounds}</td>
                        <td>${event.writeUnits}</td><td>${event.indexWriteUnits}</td><td>${event.readUnits}</td>
                        <td>${event.released}</td><td>${event.dollarsPerMillion.toFixed(2)}</td>
                    </tr>`)}
                </tbody>
            </table>
            <h3>Hot keys: sustained events a second before a partition throttles</h3>
            <table data-testid="capacity-hot-keys">
                <thead><tr><th>Key</th><th>Written by</th><th>WU per event</th><th>Shards</th><th>Events/s</th></tr></thead>
                <tbody>${figures.hotKeys.map(hot => html`
                    <tr><td>${hot.key}</td><td>${hot.writtenBy}</td><td>${hot.writeUnits}</td><td>${hot.spreadOver}</td><td>${hot.sustained}</td></tr>`)}
                </tbody>
            </table>`;
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
