import { useEffect, useRef } from 'react';
import { loadScript, loaderApi, type LoaderHandle } from '../loader';
import css from './Casino.module.css';

type Props = {
  src: string;
  global: string;
  url: string;
  title: string;
  onReady: () => void;
  /** The script did not load, defined no loader, or the loader could not start the game. */
  onError: () => void;
};

/** A provider's game mounted by the provider's own loader script into this box. */
export function LoaderMount({ src, global, url, title, onReady, onError }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const ready = useRef(onReady);
  const failed = useRef(onError);
  ready.current = onReady;
  failed.current = onError;

  useEffect(() => {
    let live = true;
    let handle: LoaderHandle | null = null;
    const fail = () => live && failed.current();
    loadScript(src).then(() => {
      if (!live || !box.current) return;
      const loader = loaderApi(global);
      if (!loader) return fail();
      try {
        handle = loader.mount(box.current, { url, title, onReady: () => live && ready.current(), onError: fail });
      } catch {
        fail();
      }
    }, fail);
    return () => {
      live = false;
      handle?.destroy();
    };
  }, [src, global, url, title]);

  return <div ref={box} className={css.gameFrame} data-testid="game-loader" />;
}
