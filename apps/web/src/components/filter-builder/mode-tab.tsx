import { cn } from '@/lib/utils.ts';

/** One of the builder / RSQL switch's two buttons (pressed when it is the current mode). */
export function ModeTab({
  selected,
  onSelect,
  disabled,
  children,
}: {
  selected: boolean;
  onSelect: () => void;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      disabled={disabled}
      onClick={() => !selected && onSelect()}
      className={cn(
        'text-muted-foreground focus-visible:ring-ring/50 inline-flex items-center gap-1.5 rounded-sm px-2.5 py-1 text-xs font-medium transition-colors outline-none focus-visible:ring-[3px] disabled:opacity-50',
        selected && 'bg-background text-foreground shadow-xs',
      )}
    >
      {children}
    </button>
  );
}
