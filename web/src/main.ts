// Chimère's web front end: one HTML shell (`data-page`, `data-arg` on the body) and a
// page drawn by the module of that page. See ARCHITECTURE.md, "The web app".
import { archivePage } from './pages/archive';
import { gamePage, notFoundPage } from './pages/game';
import { lobbyPage } from './pages/lobby';
import { conditionsPage, rulesPage } from './pages/rules';

const page = document.body.dataset.page || 'lobby';
const arg = document.body.dataset.arg || '';

if (page === 'lobby') lobbyPage();
else if (page === 'game') gamePage(arg);
else if (page === 'archive') archivePage();
else if (page === 'rules') rulesPage(arg);
else if (page === 'conditions') conditionsPage();
else notFoundPage('There is no such page here.');
