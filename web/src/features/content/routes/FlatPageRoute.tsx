import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS, LANGUAGES, languageOf } from '../../../app/i18n';
import { api } from '../../../api/api';
import { BackButton } from '../../../components/BackButton';
import { Spinner } from '../../../components/Spinner';
import css from '../components/Content.module.css';
import NotFoundPage from './NotFoundPage';

/** /flatPages/:flatPageName (and /flatpages/terms): sanitised HTML from the server. */
export default function FlatPageRoute() {
  const { i18n } = useTranslation(ACCOUNT_NS);
  const { flatPageName = '' } = useParams();
  const lang = languageOf(i18n.language) ?? LANGUAGES[0];
  const { data, isLoading } = api.useFlatPagesQuery(lang.id);
  if (isLoading) {
    return (
      <div className={css.center}>
        <Spinner />
      </div>
    );
  }
  const page = data?.find((p) => p.idName.toLowerCase() === flatPageName.toLowerCase());
  if (!page) return <NotFoundPage />;
  return (
    <article className={css.article}>
      <BackButton fallback="/home" />
      {/* The server sanitises flat page HTML (docs/openapi.json: "HTML is sanitised"). */}
      <div className={css.prose} dangerouslySetInnerHTML={{ __html: page.text }} />
    </article>
  );
}
