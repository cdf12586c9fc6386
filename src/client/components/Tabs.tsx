import { useRef, type ReactNode } from 'react';

export interface TabDef {
  id: string;
  label: string;
}

/**
 * WAI-ARIA tabs: Left/Right/Home/End move between tabs (automatic activation);
 * only the active tab is in the tab order.
 */
export function Tabs(props: {
  tabs: TabDef[];
  active: string;
  onChange: (id: string) => void;
  label: string;
  children: ReactNode;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const { tabs, active, onChange } = props;
  const onKey = (e: React.KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === active);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    onChange(tabs[to].id);
    refs.current[tabs[to].id]?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={props.label} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === active}
            aria-controls={t.id === active ? `panel-${t.id}` : undefined}
            tabIndex={t.id === active ? 0 : -1}
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} tabIndex={0}>
        {props.children}
      </div>
    </div>
  );
}
