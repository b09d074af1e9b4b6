// MainWindow's files in: sessions (open, save, recent, the last one), position tables, files dropped.
#include "window/main_window.h"

#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "models/model_config.h"

#include "figures/plot_view.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QUrl>

#include <algorithm>
#include <limits>

namespace {

// The table at path, FILE or FILE:TENSOR (a position table or T5's bias table), or null with *error one sentence.
std::shared_ptr<const pe::PositionTable>
openTableFile(const QString &path, QString *error, pe::PositionTable::Role role = pe::PositionTable::Role::Positions)
{
    try {
        return pe::PositionTable::open(path.toStdString(), role);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

// The parameters set, or false with *error the validator's sentence (nothing changed).
bool setOrSay(Parameters *parameters, const pe::EncodingParams &v, QString *error)
{
    if (auto problem = parameters->set(v)) {
        if (error)
            *error = QString::fromStdString(problem->message);
        return false;
    }
    return true;
}

} // namespace

bool MainWindow::openTable(const QString &path, QString *error)
{
    const auto table = openTableFile(path, error);
    if (!table)
        return false;
    // The whole table from its first row (up to seq_len's limit).
    pe::EncodingParams v = parameters_->values();
    v.startPos = 0;
    return setOrSay(parameters_, pe::tableParams(v, table), error);
}

bool MainWindow::openBiasTable(const QString &path, QString *error)
{
    const auto table = openTableFile(path, error, pe::PositionTable::Role::T5Bias);
    if (!table)
        return false;
    // T5 with the table's buckets (its rows) and its first head; the other parameters kept.
    pe::EncodingParams v = parameters_->values();
    v.scheme = pe::SchemeId::T5;
    v.table.reset();
    v.biasTable = table;
    v.buckets = static_cast<int>(std::min<std::int64_t>(table->rows(), std::numeric_limits<int>::max()));
    v.head = 1;
    return setOrSay(parameters_, v, error);
}

bool MainWindow::openModel(const QString &path, QString *error)
{
    const auto model = openModelFile(path, error);
    if (!model)
        return false;
    return setOrSay(parameters_, pe::modelParams(model), error);
}

namespace {

// "Opened model NAME (type, class): scheme": what the config gave, in the status bar.
QString openedModelText(const pe::EncodingParams &p)
{
    if (!p.model)
        return {};
    return QObject::tr("Opened %1: %2 (the panel says how each value was read)")
        .arg(QString::fromStdString(pe::modelTitle(*p.model)), QString::fromStdString(pe::formulaText(p)));
}

// A dropped .gguf is a model when it has RoPE metadata and no position table to show.
bool ggufIsModel(const QString &path)
{
    try {
        const pe::TensorIndex index = pe::PositionTable::index(path.toStdString());
        const pe::GgufValue *arch = index.find("general.architecture");
        if (!arch || arch->kind != pe::GgufValue::Kind::String)
            return false;
        return pe::PositionTable::candidates(index, pe::PositionTable::Role::Positions).empty() &&
               (index.find(arch->text + ".rope.freq_base") || index.find(arch->text + ".rope.dimension_count") ||
                arch->text == "bloom" || arch->text == "mpt" || arch->text == "t5");
    } catch (const std::exception &) {
        return false; // the table's opening says why
    }
}

// A dropped .json is a session when it says so; any other JSON is read as a model's config.
bool isSessionFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return true; // the session's opening says why
    return f.read(kMaxSessionBytes).contains("positional-encoding-explorer-session");
}

// "Opened FILE", with the model's convention when one was applied (OPT's offset, a ViT's grid).
QString openedText(const QString &spec, const pe::EncodingParams &p)
{
    if (p.table && !p.table->convention().empty())
        return QObject::tr("Opened %1: %2").arg(spec, QString::fromStdString(p.table->convention()));
    return QObject::tr("Opened %1").arg(spec);
}

QString tableFilter()
{
    return QObject::tr("Tables and checkpoints (*.npy *.safetensors *.gguf);;NumPy arrays (*.npy);;safetensors "
                       "(*.safetensors);;GGUF (*.gguf);;All files (*)");
}

} // namespace

QString MainWindow::chooseTensor(const QString &path, bool bias)
{
    using Role = pe::PositionTable::Role;
    const Role role = bias ? Role::T5Bias : Role::Positions;
    pe::TensorIndex index;
    try {
        index = pe::PositionTable::index(path.toStdString());
    } catch (const std::exception &) {
        return path; // the opening says why
    }
    const auto found = pe::PositionTable::candidates(index, role);
    if (index.format == pe::TensorFormat::Npy || found.size() == 1)
        return path;
    // The named candidates first, then every other tensor a table could be (floats of 2 or 3 dimensions).
    std::vector<const pe::TensorInfo *> offered(found.begin(), found.end());
    for (const auto &t : index.tensors)
        if (std::find(found.begin(), found.end(), &t) == found.end() && t.type != pe::TensorType::Other &&
            (t.shape.size() == 2 || t.shape.size() == 3))
            offered.push_back(&t);
    if (offered.empty())
        return path; // the opening says there is none
    QStringList items;
    for (const auto *t : offered)
        items << QStringLiteral("%1   (%2, %3)")
                     .arg(QString::fromStdString(t->name), QString::fromStdString(pe::shapeText(t->shape)),
                          QString::fromStdString(t->dtype));
    const QString what = bias ? tr("T5 bias table") : tr("position table");
    const QString label =
        found.empty() ? tr("No tensor of %1 is named as a %2. Choose one:").arg(QFileInfo(path).fileName(), what)
                      : tr("%1 has %2 tensors named as a %3. Choose one:")
                            .arg(QFileInfo(path).fileName())
                            .arg(found.size())
                            .arg(what);
    bool ok = false;
    const QString item = QInputDialog::getItem(this, tr("Choose the %1").arg(what), label, items, 0, false, &ok);
    if (!ok)
        return {};
    return path + QLatin1Char(':') +
           QString::fromStdString(offered[static_cast<std::size_t>(items.indexOf(item))]->name);
}

void MainWindow::openBiasTableDialog()
{
    QString path = QFileDialog::getOpenFileName(this, tr("Open T5 bias table"), QString(), tableFilter());
    if (path.isEmpty() || (path = chooseTensor(path, true)).isEmpty())
        return;
    QString error;
    const bool ok = openBiasTable(path, &error);
    report(ok, tr("Open T5 bias table"), tr("The bias table was not opened: %1"), error, tr("Opened %1").arg(path));
}

void MainWindow::closeTable()
{
    pe::EncodingParams v = parameters_->values();
    v.table.reset();
    v.scheme = pe::SchemeId::Sinusoidal;
    v.seqLen = std::min<std::int64_t>(v.seqLen, 1000); // the sinusoids at the table's size, d_model kept
    parameters_->set(v);
}

void MainWindow::openTableDialog()
{
    QString path = QFileDialog::getOpenFileName(this, tr("Open position table"), QString(), tableFilter());
    if (path.isEmpty() || (path = chooseTensor(path, false)).isEmpty())
        return;
    QString error;
    const bool ok = openTable(path, &error);
    report(ok, tr("Open table"), tr("The table was not opened: %1"), error, openedText(path, parameters_->values()));
}

void MainWindow::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open model"), QString(),
        tr("Model configs and GGUF files (*.json *.gguf);;Hugging Face config.json (*.json);;GGUF (*.gguf);;All "
           "files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = openModel(path, &error);
    report(ok, tr("Open model"), tr("The model was not opened: %1"), error, openedModelText(parameters_->values()));
}

void MainWindow::addSessionMenus(QMenu *file)
{
    QAction *open = file->addAction(tr("&Open session…"), this, &MainWindow::openSessionDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    fillRecentMenu();
    QAction *save = file->addAction(tr("&Save session…"), this, &MainWindow::saveSessionDialog);
    save->setShortcut(QKeySequence::Save);
    save->setToolTip(tr("Every parameter and view setting as a JSON file; open it later, or drop it on the window"));
    file->addSeparator();
    QAction *table = file->addAction(tr("Open &table…"), this, &MainWindow::openTableDialog);
    table->setToolTip(tr("Show a position table with every view: a 2-D NumPy .npy array (rows = positions) or a "
                         "safetensors or GGUF checkpoint's (GPT-2's wpe, BERT's, OPT's, a ViT's); or drop it on the "
                         "window"));
    QAction *bias = file->addAction(tr("Open T5 &bias table…"), this, &MainWindow::openBiasTableDialog);
    bias->setToolTip(tr("T5's learned relative_attention_bias (a [buckets, heads] .npy array, or a T5 checkpoint's): "
                        "its bias per head in the "
                        "T5 buckets view and the attention it gives"));
    QAction *model = file->addAction(tr("Open &model…"), this, &MainWindow::openModelDialog);
    model->setToolTip(tr("A model's own positions: its Hugging Face config.json or a GGUF checkpoint's metadata, "
                         "mapped to the scheme (RoPE and its scaling, partial rotary, local layers, ALiBi, T5); or "
                         "drop it on the window"));
    closeTableAction_ = file->addAction(tr("&Close table (back to the sinusoids)"), this, &MainWindow::closeTable);
    closeTableAction_->setEnabled(false);
    connect(parameters_, &Parameters::changed, closeTableAction_,
            [this] { closeTableAction_->setEnabled(parameters_->values().table != nullptr); });
}

Session MainWindow::currentSession() const
{
    return workspace_->session(views_[static_cast<std::size_t>(tabs_->currentIndex())].first);
}

bool MainWindow::applySession(const Session &s, QString *error)
{
    if (!workspace_->applySession(s, error))
        return false;
    showView(s.view);
    if (second_)
        second_->applySettings(workspace_->viewSettings(second_->info().id));
    return true;
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    const std::optional<Session> s = readSessionFile(path, error);
    if (!s || !applySession(*s, error))
        return false;
    sessionPath_ = path;
    rememberRecent(path);
    return true;
}

bool MainWindow::saveSession(const QString &path, QString *error)
{
    if (!writeSessionFile(path, currentSession(), error))
        return false;
    sessionPath_ = path;
    rememberRecent(path);
    return true;
}

QStringList MainWindow::recentSessions() const
{
    return QSettings().value(QStringLiteral("recentSessions")).toStringList();
}

QUndoStack *MainWindow::undoStack() const
{
    return workspace_->undoStack();
}

void MainWindow::rememberRecent(const QString &path)
{
    QStringList recent = recentSessions();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > 8)
        recent.removeLast();
    QSettings().setValue(QStringLiteral("recentSessions"), recent);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = recentSessions();
    for (const QString &path : recent)
        recentMenu_
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            QString error;
                            const bool ok = openSession(path, &error);
                            report(ok, tr("Open session"), tr("The session was not opened: %1"), error,
                                   tr("Opened %1").arg(path));
                        })
            ->setToolTip(path);
    recentMenu_->setToolTipsVisible(true);
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::report(bool ok, const QString &title, const QString &failure, const QString &error,
                        const QString &success)
{
    if (ok)
        statusBar()->showMessage(success, 5000);
    else
        QMessageBox::warning(this, title, failure.arg(error));
}

void MainWindow::openSessionDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open session"), sessionPath_, tr("Sessions (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = openSession(path, &error);
    report(ok, tr("Open session"), tr("The session was not opened: %1"), error, tr("Opened %1").arg(path));
}

void MainWindow::saveSessionDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save session"), sessionPath_.isEmpty() ? QStringLiteral("session.json") : sessionPath_,
        tr("Sessions (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = saveSession(path, &error);
    report(ok, tr("Save session"), tr("The session was not saved: %1"), error, tr("Saved %1").arg(path));
}

void MainWindow::restoreLastState()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    QString error;
    // A state this version cannot read is skipped: the window starts from its defaults.
    if (auto s = parseSession(settings.value(QStringLiteral("lastSession")).toByteArray(), &error))
        applySession(*s, &error);
    workspace_->undoStack()->clear();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (lectureMode())
        setLectureMode(false);
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("lastSession"),
                      QJsonDocument(sessionToJson(currentSession())).toJson(QJsonDocument::Compact));
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    QString error;
    const QString path = urls.first().toLocalFile();
    const bool gguf = path.endsWith(QStringLiteral(".gguf"), Qt::CaseInsensitive);
    if ((gguf && ggufIsModel(path)) || QFileInfo(path).isDir() ||
        (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) && !isSessionFile(path))) {
        const bool ok = openModel(path, &error);
        report(ok, tr("Open model"), tr("The dropped model was not opened: %1"), error,
               openedModelText(parameters_->values()));
        return;
    }
    if (path.endsWith(QStringLiteral(".npy"), Qt::CaseInsensitive) ||
        path.endsWith(QStringLiteral(".safetensors"), Qt::CaseInsensitive) || gguf) {
        const QString spec = chooseTensor(path, false);
        if (spec.isEmpty())
            return;
        const bool ok = openTable(spec, &error);
        report(ok, tr("Open table"), tr("The dropped table was not opened: %1"), error,
               openedText(spec, parameters_->values()));
        return;
    }
    const bool ok = openSession(urls.first().toLocalFile(), &error);
    report(ok, tr("Open session"), tr("The dropped file was not opened: %1"), error,
           tr("Opened %1").arg(urls.first().toLocalFile()));
}
