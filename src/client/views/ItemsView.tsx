import { openEquation } from '../guide/ModelSummary';
import { useMemo, useState } from 'react';
import { DataTable, type Column } from '../components/DataTable';
import type { Derived, ItemRow } from '../../core/fit/derive';
import type { ViewProps } from './types';
import type { ItemResult } from '../../core/fit/types';
import { OPTION_LABELS } from '../../core/data/types';
import {
  DIFFICULTY_DEN_MIN,
  DIFFICULTY_SE_MAX,
  DIFFICULTY_UNDEFINED,
  difficultyValue,
  formatDifficulty,
} from '../../core/model/difficulty';
import { ItemDetail } from './ItemDetail';
import { accuracyColumn, itemIdColumns, ITEM_SEARCH_KEYS } from './itemColumns';
import { FlagTools, flagsColumn, ItemFlagList } from './bank/FlagViews';
import { filterByFlag, type FlagFilter, type FlagIndex } from './bank/flags';

/** "1.234 ± 0.056" when the fit carries a standard error, else the value alone. */
export function withSE(v: number, se: number | undefined, d = 3): string {
  if (!Number.isFinite(v)) return '—';
  return se !== undefined && Number.isFinite(se)
    ? `${v.toFixed(d)} ± ${se.toFixed(d)}`
    : v.toFixed(d);
}

function columns(binary: boolean, items?: ItemResult[]): Column<ItemRow>[] {
  const cols: Column<ItemRow>[] = [
    ...itemIdColumns<ItemRow>(),
    {
      key: 'b',
      label: binary ? 'b' : 'b̃',
      // Undefined where the key does not discriminate (core/model/difficulty.ts): NaN sorts last.
      value: (r) => {
        const it = items?.[r.index];
        return it ? difficultyValue(it) : r.b;
      },
      render: (r) => {
        const it = items?.[r.index];
        if (!it) return withSE(r.b, undefined);
        const text = formatDifficulty(it);
        return text === DIFFICULTY_UNDEFINED ? <span className="wrap muted">{text}</span> : text;
      },
      numeric: true,
    },
    {
      key: 'aKey',
      label: binary ? 'a' : 'a_key',
      value: (r) => r.aKey,
      render: (r) => {
        const it = items?.[r.index];
        const se = binary
          ? it?.slopeSE
          : it?.aSE?.[(OPTION_LABELS as readonly string[]).indexOf(it.key)];
        return withSE(r.aKey, se);
      },
      numeric: true,
    },
    {
      key: 'info',
      label: 'Mean info',
      value: (r) => r.infoBinary + r.infoWrong,
      numeric: true,
    },
  ];
  if (!binary)
    cols.push({
      key: 'informative',
      label: 'Inform. distractors',
      value: (r) => r.informative,
      render: (r) => r.informative,
      numeric: true,
    });
  cols.push(accuracyColumn<ItemRow>());
  return cols;
}

/** Items table (search, sort, Up/Down) and the selected item's curves. */
export function ItemsView(props: ViewProps & { derived: Derived; flags: FlagIndex }) {
  const { derived, item, onItem, flags } = props;
  const [flagFilter, setFlagFilter] = useState<FlagFilter>('all');
  const rows = useMemo(
    () => filterByFlag(derived.items, flags, flagFilter),
    [derived.items, flags, flagFilter],
  );
  const cols = useMemo(
    () => [...columns(derived.binary, props.fit.items), flagsColumn(flags)],
    [derived.binary, flags, props.fit.items],
  );
  const itemId = props.fit.items[item]?.id ?? '';
  return (
    <div className="items-view">
      <FlagTools flags={flags} filter={flagFilter} onFilter={setFlagFilter} />
      <DataTable
        rows={rows}
        columns={cols}
        rowKey={(r) => r.index}
        name="items"
        caption="Items"
        searchKeys={ITEM_SEARCH_KEYS}
        selected={item}
        onSelect={(r) => onItem(r.index)}
        pageSize={300}
      />
      <ItemDetail {...props} />
      <ItemFlagList item={itemId} flags={flags.byItem.get(itemId) ?? []} />
      <p className="muted small">
        Mean info = I_binary + I_wrong averaged over the fitted θ of the LLMs
        {derived.binary ? (
          '.'
        ) : (
          <>
            ; b̃ is the paper&apos;s difficulty index (
            <a
              href="#eq-10"
              onClick={(e) => {
                e.preventDefault();
                openEquation('eq-10');
              }}
            >
              eq. 10
            </a>
            ).
          </>
        )}{' '}
        The difficulty is {DIFFICULTY_UNDEFINED} where the key&apos;s slope is within{' '}
        {DIFFICULTY_DEN_MIN} of the distractors&apos; weighted slope (
        {derived.binary ? 'the slope' : 'a_key − ā'}) or its SE exceeds {DIFFICULTY_SE_MAX} (the
        whole θ range −4…4): there it is a ratio of noise.
      </p>
    </div>
  );
}
