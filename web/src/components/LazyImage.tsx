import { useEffect, useRef, useState } from 'react';
import css from './ui.module.css';

/** An image (or an mp4, played muted in a loop) loaded when it nears the viewport. */
export function LazyImage({
  src,
  alt,
  className,
  eager = false,
  width,
  height,
}: {
  src: string;
  alt: string;
  className?: string;
  eager?: boolean;
  width?: number;
  height?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(eager || typeof IntersectionObserver === 'undefined');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (visible || !ref.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          io.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    io.observe(ref.current);
    return () => io.disconnect();
  }, [visible]);

  const isVideo = /\.mp4(\?|$)/i.test(src);
  return (
    <div ref={ref} className={`${css.lazy} ${loaded ? css.lazyLoaded : ''} ${className ?? ''}`}>
      {visible &&
        (isVideo ? (
          <video
            src={src}
            muted
            loop
            autoPlay
            playsInline
            aria-label={alt}
            onLoadedData={() => setLoaded(true)}
            data-testid="lazy-video"
          />
        ) : (
          <img
            src={src}
            alt={alt}
            width={width}
            height={height}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            onLoad={() => setLoaded(true)}
          />
        ))}
    </div>
  );
}
