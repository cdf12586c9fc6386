import { useRef, useState } from 'react';
import { loadArenaDemo, readMap, readScores, type MapFile, type ScoresFile } from './externalFiles';
import { HiddenFileInput } from '../../components/HiddenFileInput';

/**
 * Where external scores come from: a dropped or picked CSV, an optional name
 * map, or the Arena demo (scores and the demo's name map together).
 */
export function ScoreSources({
  onScores,
  onMap,
}: {
  onScores: (s: ScoresFile) => void;
  onMap: (m: MapFile) => void;
}) {
  const [loadError, setLoadError] = useState<string | null>(null);
  const scoresInput = useRef<HTMLInputElement>(null);
  const mapInput = useRef<HTMLInputElement>(null);

  const attempt = async (load: () => Promise<void>) => {
    setLoadError(null);
    try {
      await load();
    } catch (e) {
      setLoadError(e instanceof Error ? e.message : String(e));
    }
  };
  const onFile = (what: 'scores' | 'map', file: File | undefined) => {
    if (!file) return;
    void attempt(async () =>
      what === 'scores' ? onScores(await readScores(file)) : onMap(await readMap(file)),
    );
  };
  const loadDemo = () =>
    attempt(async () => {
      const demo = await loadArenaDemo();
      onScores(demo.scores);
      onMap(demo.map);
    });

  return (
    <>
      <div
        className="dropzone"
        data-testid="scores-dropzone"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          onFile('scores', e.dataTransfer.files[0]);
        }}
      >
        <p>
          Drop a CSV of external scores here: <code>model,score</code>, or the LMArena leaderboard
          file (<code>arena_score</code>). A name map CSV (<code>our_name,their_name</code>) helps
          match names that differ.
        </p>
        <div className="row">
          <button type="button" onClick={() => scoresInput.current?.click()}>
            Choose scores CSV…
          </button>
          <button type="button" onClick={() => mapInput.current?.click()}>
            Choose name map…
          </button>
          <button type="button" onClick={() => void loadDemo()}>
            Load Arena demo scores
          </button>
        </div>
        {(
          [
            ['scores', scoresInput, 'External scores CSV'],
            ['map', mapInput, 'Name map CSV'],
          ] as const
        ).map(([kind, ref, label]) => (
          <HiddenFileInput
            key={kind}
            ref={ref}
            accept=".csv,.txt"
            label={label}
            testId={`${kind}-input`}
            onFiles={(files) => onFile(kind, files?.[0])}
          />
        ))}
      </div>
      {loadError && (
        <p className="eval-error" role="alert">
          {loadError}
        </p>
      )}
    </>
  );
}
