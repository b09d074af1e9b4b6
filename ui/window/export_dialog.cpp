#include "window/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

constexpr SizeUnit kUnits[] = {SizeUnit::Pixel, SizeUnit::Inch, SizeUnit::Millimetre, SizeUnit::Centimetre};

int decimalsFor(SizeUnit unit)
{
    return unit == SizeUnit::Pixel ? 0 : unit == SizeUnit::Inch ? 2 : 1;
}

} // namespace

ExportDialog::ExportDialog(const QStringList &viewTitles, int currentView, QSize currentSize, Preview preview,
                           QWidget *parent)
    : QDialog(parent)
    , preview_(std::move(preview))
    , view_(new QComboBox(this))
    , panels_(new QCheckBox(tr("Several views as the panels of one figure"), this))
    , panelViews_(new QListWidget(this))
    , rows_(new QSpinBox(this))
    , columns_(new QSpinBox(this))
    , labels_(new QComboBox(this))
    , panelBox_(new QWidget(this))
    , unit_(new QComboBox(this))
    , width_(new QDoubleSpinBox(this))
    , height_(new QDoubleSpinBox(this))
    , scale_(new QDoubleSpinBox(this))
    , dpi_(new QSpinBox(this))
    , font_(new QDoubleSpinBox(this))
    , path_(new QLineEdit(this))
    , pixels_(new QLabel(this))
    , picture_(new QLabel(this))
    , note_(new QLabel(this))
    , previewTimer_(new QTimer(this))
{
    setWindowTitle(tr("Export figure"));
    view_->setObjectName(QStringLiteral("exportView"));
    view_->addItems(viewTitles);
    view_->setCurrentIndex(currentView);
    // Panels: the views ticked, in the list's order (dragged to reorder), in rows x columns.
    panels_->setObjectName(QStringLiteral("exportPanels"));
    panels_->setToolTip(tr("One figure of the views ticked below, in one type, their plots aligned along rows and "
                           "columns, as --export VIEW,VIEW --panels RxC draws it"));
    panelViews_->setObjectName(QStringLiteral("exportPanelViews"));
    panelViews_->setDragDropMode(QAbstractItemView::InternalMove);
    panelViews_->setToolTip(tr("Tick the views; drag them into the order of the panels (row by row)"));
    for (int i = 0; i < viewTitles.size(); ++i) {
        auto *item = new QListWidgetItem(viewTitles[i], panelViews_);
        item->setData(Qt::UserRole, i);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(i == currentView ? Qt::Checked : Qt::Unchecked);
    }
    panelViews_->setMaximumHeight(panelViews_->sizeHintForRow(0) * 6 + 4);
    for (QSpinBox *side : {rows_, columns_}) {
        side->setRange(1, kMaxPanels);
        side->setValue(1);
    }
    rows_->setObjectName(QStringLiteral("exportRows"));
    columns_->setObjectName(QStringLiteral("exportColumns"));
    labels_->setObjectName(QStringLiteral("exportPanelLabels"));
    labels_->addItems(panelLabelStyles());
    auto *gridRow = new QHBoxLayout;
    gridRow->addWidget(rows_);
    gridRow->addWidget(new QLabel(tr("rows ×"), this));
    gridRow->addWidget(columns_);
    gridRow->addWidget(new QLabel(tr("columns; labels"), this));
    gridRow->addWidget(labels_);
    gridRow->addStretch(1);
    auto *panelLayout = new QVBoxLayout(panelBox_);
    panelLayout->setContentsMargins(0, 0, 0, 0);
    panelLayout->addWidget(panelViews_);
    panelLayout->addLayout(gridRow);
    panelBox_->hide();
    unit_->setObjectName(QStringLiteral("exportUnit"));
    unit_->addItems({tr("pixels"), tr("inches"), tr("millimetres"), tr("centimetres")});
    unit_->setToolTip(tr("Pixels keep the window's layout; a physical size is laid out in points, as a journal "
                         "column (3.5 in, 89 mm) or a page width (7 in) prints it"));
    width_->setObjectName(QStringLiteral("exportWidth"));
    height_->setObjectName(QStringLiteral("exportHeight"));
    scale_->setObjectName(QStringLiteral("exportScale"));
    scale_->setRange(figurelimits::minScale, figurelimits::maxScale);
    scale_->setSingleStep(0.5);
    scale_->setToolTip(tr("Device pixels per pixel: 2 gives a sharp figure at the same layout (SVG and PDF: how "
                          "finely heatmap cells and projection points are computed)"));
    dpi_->setObjectName(QStringLiteral("exportDpi"));
    dpi_->setRange(figurelimits::minDpi, figurelimits::maxDpi);
    dpi_->setSingleStep(50);
    dpi_->setToolTip(tr("Pixels per inch of the PNG (stored in the file); 300 for print"));
    font_->setObjectName(QStringLiteral("exportFont"));
    font_->setRange(figurelimits::minFont - 1, figurelimits::maxFont); // the minimum is "auto"
    font_->setDecimals(1);
    font_->setSingleStep(0.5);
    font_->setSuffix(tr(" pt"));
    font_->setSpecialValueText(tr("auto"));
    font_->setToolTip(tr("Tick labels in points at the printed size, axis labels and titles in proportion; "
                         "auto: the window's type for pixels, %1 pt for a physical size")
                          .arg(kDefaultFigureFont));

    // What was chosen last time, else the window's plot at scale 2.
    QSettings settings;
    settings.beginGroup(QStringLiteral("export"));
    const int unit = std::clamp(settings.value(QStringLiteral("unit"), 0).toInt(), 0, 3);
    unit_->setCurrentIndex(unit);
    shownUnit_ = unit;
    unitChanged();
    const QSizeF size = settings.value(QStringLiteral("size"), QSizeF(currentSize)).toSizeF();
    width_->setValue(size.width());
    height_->setValue(size.height());
    scale_->setValue(settings.value(QStringLiteral("scale"), 2.0).toDouble());
    dpi_->setValue(settings.value(QStringLiteral("dpi"), 300).toInt());
    font_->setValue(settings.value(QStringLiteral("font"), 0.0).toDouble());
    path_->setText(
        settings.value(QStringLiteral("path"), QDir::current().filePath(QStringLiteral("figure.png"))).toString());
    settings.endGroup();

    auto *browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(path_, 1);
    fileRow->addWidget(browseButton);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(width_, 1);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(height_, 1);
    sizeRow->addWidget(unit_);

    pixels_->setWordWrap(true);
    picture_->setObjectName(QStringLiteral("exportPreview"));
    picture_->setMinimumSize(420, 280);
    picture_->setAlignment(Qt::AlignCenter);
    picture_->setFrameShape(QFrame::StyledPanel);
    previewTimer_->setSingleShot(true);
    previewTimer_->setInterval(150); // a preview per pause in typing, not per keystroke
    connect(previewTimer_, &QTimer::timeout, this, &ExportDialog::drawPreview);

    connect(unit_, &QComboBox::currentIndexChanged, this, &ExportDialog::unitChanged);
    for (QDoubleSpinBox *box : {width_, height_, scale_, font_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExportDialog::update);
    connect(dpi_, &QSpinBox::valueChanged, this, &ExportDialog::update);
    connect(view_, &QComboBox::currentIndexChanged, this, &ExportDialog::update);
    connect(panels_, &QCheckBox::toggled, this, [this](bool on) {
        panelBox_->setVisible(on);
        view_->setEnabled(!on);
        panelsChanged();
    });
    connect(panelViews_, &QListWidget::itemChanged, this, &ExportDialog::panelsChanged);
    connect(panelViews_->model(), &QAbstractItemModel::rowsMoved, this, &ExportDialog::update);
    for (QSpinBox *side : {rows_, columns_})
        connect(side, &QSpinBox::valueChanged, this, &ExportDialog::update);
    connect(labels_, &QComboBox::currentIndexChanged, this, &ExportDialog::update);

    auto *form = new QFormLayout(this);
    form->addRow(tr("View:"), view_);
    form->addRow(panels_);
    form->addRow(panelBox_);
    form->addRow(tr("Size:"), sizeRow);
    form->addRow(tr("Scale:"), scale_);
    form->addRow(tr("Resolution (dpi):"), dpi_);
    form->addRow(tr("Type:"), font_);
    form->addRow(tr("Image:"), pixels_);
    note_->setObjectName(QStringLiteral("exportNote"));
    note_->setWordWrap(true);
    note_->hide();
    form->addRow(note_);
    form->addRow(picture_);
    form->addRow(tr("File (.png, .svg, .pdf):"), fileRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    setMinimumWidth(520);
    update();
}

void ExportDialog::unitChanged()
{
    // The size keeps its physical meaning across units (pixels count as points).
    const SizeUnit from = kUnits[shownUnit_], to = kUnits[unit_->currentIndex()];
    const double k = pointsPerUnit(from) / pointsPerUnit(to);
    const double w = width_->value() * k, h = height_->value() * k;
    for (QDoubleSpinBox *side : {width_, height_}) {
        const QSignalBlocker quiet(side);
        side->setDecimals(decimalsFor(to));
        side->setRange(figurelimits::minSide / pointsPerUnit(to), figurelimits::maxSide / pointsPerUnit(to));
        side->setSingleStep(to == SizeUnit::Pixel ? 10 : to == SizeUnit::Inch ? 0.25 : 1);
        side->setSuffix(QLatin1Char(' ') + unitName(to));
    }
    {
        const QSignalBlocker quietW(width_), quietH(height_);
        width_->setValue(w);
        height_->setValue(h);
    }
    shownUnit_ = unit_->currentIndex();
    scale_->setEnabled(to == SizeUnit::Pixel);
    update();
}

FigureOptions ExportDialog::options() const
{
    FigureOptions o;
    o.unit = kUnits[unit_->currentIndex()];
    if (o.isPhysical())
        o.physical = QSizeF(width_->value(), height_->value());
    else
        o.size = QSize(static_cast<int>(std::lround(width_->value())), static_cast<int>(std::lround(height_->value())));
    o.scale = scale_->value();
    o.dpi = dpi_->value();
    o.fontPoints = font_->value() < figurelimits::minFont ? 0 : font_->value();
    return o;
}

void ExportDialog::panelsChanged()
{
    // A grid for the views ticked: one row of them, up to three a row.
    const int n = static_cast<int>(panelViews().size());
    if (n > 0 && parsePanelGrid(QStringLiteral("%1x%2").arg(rows_->value()).arg(columns_->value()), n, nullptr)) {
        const int columns = std::min(n, 3);
        const QSignalBlocker quietR(rows_), quietC(columns_);
        columns_->setValue(columns);
        rows_->setValue((n + columns - 1) / columns);
    }
    update();
}

QList<int> ExportDialog::panelViews() const
{
    QList<int> views;
    if (!panels_->isChecked())
        return views;
    for (int row = 0; row < panelViews_->count(); ++row)
        if (const QListWidgetItem *item = panelViews_->item(row); item->checkState() == Qt::Checked)
            views << item->data(Qt::UserRole).toInt();
    return views;
}

PanelGrid ExportDialog::grid() const
{
    PanelGrid g;
    g.rows = rows_->value();
    g.columns = columns_->value();
    g.labels = labels_->currentText();
    return g;
}

std::optional<QString> ExportDialog::panelsProblem() const
{
    if (!panels_->isChecked())
        return std::nullopt;
    const int n = static_cast<int>(panelViews().size());
    if (n < 2)
        return tr("Tick two views at least for a figure of panels.");
    PanelGrid g;
    if (auto problem = parsePanelGrid(QStringLiteral("%1x%2").arg(rows_->value()).arg(columns_->value()), n, &g))
        return tr("The grid: %1").arg(*problem);
    return std::nullopt;
}

void ExportDialog::update()
{
    const FigureOptions o = options();
    if (const auto problem = checkFigureOptions(o)) {
        pixels_->setText(*problem);
        return;
    }
    if (const auto problem = panelsProblem()) {
        pixels_->setText(*problem);
        return;
    }
    const QSize px = o.pixelSize();
    const QSizeF page = o.pageSize();
    pixels_->setText(o.isPhysical() ? tr("PNG %1 × %2 pixels at %3 dpi; PDF page %4 × %5 pt")
                                          .arg(px.width())
                                          .arg(px.height())
                                          .arg(o.dpi)
                                          .arg(page.width(), 0, 'f', 1)
                                          .arg(page.height(), 0, 'f', 1)
                                    : tr("PNG %1 × %2 pixels; PDF page %3 × %4 pt")
                                          .arg(px.width())
                                          .arg(px.height())
                                          .arg(o.size.width())
                                          .arg(o.size.height()));
    if (preview_)
        previewTimer_->start();
}

void ExportDialog::drawPreview()
{
    // The figure laid out as it will be, drawn to fit the preview at its own proportions.
    const FigureOptions o = options();
    if (checkFigureOptions(o) || panelsProblem())
        return;
    const QSize room = picture_->contentsRect().size();
    const QSize layout = o.layoutSize();
    const double fit = std::min(double(room.width()) / layout.width(), double(room.height()) / layout.height());
    QString note;
    const QList<int> panels = panelViews();
    const QImage image =
        preview_(panels.isEmpty() ? QList<int>{viewIndex()} : panels, grid(), o, fit * devicePixelRatioF(), &note);
    note_->setText(note);
    note_->setVisible(!note.isEmpty());
    if (image.isNull()) {
        picture_->setText(tr("This view cannot draw these parameters."));
        return;
    }
    QPixmap pixmap = QPixmap::fromImage(image);
    pixmap.setDevicePixelRatio(devicePixelRatioF());
    picture_->setPixmap(pixmap);
}

int ExportDialog::viewIndex() const
{
    return view_->currentIndex();
}

QString ExportDialog::path() const
{
    return path_->text();
}

void ExportDialog::accept()
{
    if (const auto problem = panelsProblem()) {
        note_->setText(*problem);
        note_->show();
        return;
    }
    QSettings settings;
    settings.beginGroup(QStringLiteral("export"));
    settings.setValue(QStringLiteral("unit"), unit_->currentIndex());
    settings.setValue(QStringLiteral("size"), QSizeF(width_->value(), height_->value()));
    settings.setValue(QStringLiteral("scale"), scale_->value());
    settings.setValue(QStringLiteral("dpi"), dpi_->value());
    settings.setValue(QStringLiteral("font"), font_->value());
    settings.setValue(QStringLiteral("path"), path_->text());
    settings.endGroup();
    QDialog::accept();
}

void ExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export figure"), path_->text(), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}
