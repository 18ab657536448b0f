-- Site content: settings (JSON documents by key), flat pages, slides and ads.
CREATE TABLE site_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE flat_pages (
    id BIGINT PRIMARY KEY,
    id_name TEXT NOT NULL,
    lang TEXT NOT NULL,
    name TEXT NOT NULL,
    priority BIGINT NOT NULL DEFAULT 0,
    text TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT flat_pages_key UNIQUE (id_name, lang)
);

CREATE TABLE slides (
    id BIGINT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    url TEXT NOT NULL,
    url_image TEXT NOT NULL,
    priority BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE ads (
    id BIGINT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    placement TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    url TEXT NOT NULL,
    url_image TEXT NOT NULL,
    priority BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1
);
