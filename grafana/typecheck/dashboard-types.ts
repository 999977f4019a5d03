// The shape a provisioned dashboard must have: Grafana's own schema (@grafana/schema, the version
// compose runs), with each panel's options typed by its panel type and Prometheus queries typed.
import type { Dashboard, DataQuery, DataSourceRef, Panel, RowPanel } from '@grafana/schema';
import type {
  FieldConfig as TimeSeriesFieldConfig,
  Options as TimeSeriesOptions,
} from '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';
import type { Options as StatOptions } from '@grafana/schema/dist/esm/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';

// The schema types fields such as a color mode as TypeScript enums; dashboard JSON holds their
// string values, which TypeScript refuses for an enum type. Loose<T> accepts the values instead,
// and keeps every other check (unknown keys, wrong types, missing required fields).
type Loose<T> = T extends string
  ? string extends T ? string : `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer E>
      ? Array<Loose<E>>
      : T extends object
        ? { [K in keyof T]: Loose<T[K]> }
        : T;

// @grafana/schema has no Prometheus query type (it lives in the Prometheus plugin): the fields we use.
interface PrometheusQuery extends DataQuery {
  expr: string;
  legendFormat?: string;
  instant?: boolean;
  range?: boolean;
  interval?: string;
}

type TypedPanel<TType extends string, TOptions, TCustom> =
  Omit<Panel<TOptions, TCustom>, 'type' | 'options' | 'targets'> & {
    type: TType;
    options: TOptions;
    targets: PrometheusQuery[];
  };

type DashboardPanel =
  | TypedPanel<'timeseries', TimeSeriesOptions, TimeSeriesFieldConfig>
  | TypedPanel<'stat', StatOptions, Record<string, unknown>>
  | RowPanel;

interface PrometheusAnnotation {
  name: string;
  datasource: DataSourceRef;
  enable: boolean;
  iconColor: string;
  expr: string;
  step?: string;
  titleFormat?: string;
  textFormat?: string;
  tagKeys?: string;
}

export type KcscaleDashboard = Loose<
  Omit<Dashboard, 'panels' | 'annotations'> & {
    panels: DashboardPanel[];
    annotations?: { list: PrometheusAnnotation[] };
  }
>;
