import { useState, type DragEvent } from 'react';

/**
 * A drop target: `over` while something is dragged over it, and the handlers
 * to spread on its element; a drop hands over the DataTransfer.
 */
export function useDropTarget(onDrop: (data: DataTransfer) => void) {
  const [over, setOver] = useState(false);
  const handlers = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      onDrop(e.dataTransfer);
    },
  };
  return { over, handlers };
}
