// The step metric table of docs/url-and-presets.md, made from STEP_METRICS so that the docs list
// exactly the metrics the trainer records, the charts offer and the CSV writes.
import { STEP_METRIC_KEYS, STEP_METRICS, type MetricKind, type MetricSpec } from '../rl/metrics.ts';
import { markdownTable, withSection, type DocSection } from './doc-section.ts';
import { DOC_PATH } from './url-params-doc.ts';

const SECTION: DocSection = {
  path: DOC_PATH,
  begin: '<!-- step-metrics:begin -->',
  end: '<!-- step-metrics:end -->',
};

const KIND_TEXT: Record<MetricKind, string> = {
  count: 'whole number ≥ 0',
  integer: 'whole number',
  number: 'number',
  'number-or-null': 'number or null',
  text: 'text',
};

/** The rows: metric, value (and whether some steps lack it), meaning. */
export function metricRows(): string[][] {
  return STEP_METRIC_KEYS.map((key) => {
    const spec: MetricSpec = STEP_METRICS[key];
    const value = `${KIND_TEXT[spec.kind]}${spec.optional ? ', some steps only' : ''}`;
    return [`\`${key}\``, value, spec.doc];
  });
}

export function metricTable(): string {
  return markdownTable(['metric', 'value', 'meaning'], metricRows());
}

/** The document with the metric table between its markers replaced. */
export function withMetricTable(doc: string): string {
  return withSection(doc, SECTION, metricTable());
}
