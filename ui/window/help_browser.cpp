#include "window/help_browser.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QImage>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace {

// The manual's pictures are full-window screenshots: shown at most this wide, so a page reads
// without scrolling sideways.
class ManualBrowser : public QTextBrowser
{
  public:
    using QTextBrowser::QTextBrowser;

    QVariant loadResource(int type, const QUrl &url) override
    {
        QVariant resource = QTextBrowser::loadResource(type, url);
        if (type != QTextDocument::ImageResource)
            return resource;
        QImage image = resource.value<QImage>();
        if (image.isNull())
            image.loadFromData(resource.toByteArray());
        const int widest = std::max(320, viewport()->width() - 40);
        if (!image.isNull() && image.width() > widest)
            return image.scaledToWidth(widest, Qt::SmoothTransformation);
        return image.isNull() ? resource : QVariant(image);
    }
};

} // namespace

HelpBrowser::HelpBrowser(QWidget *parent)
    : QDialog(parent)
    , browser_(new ManualBrowser(this))
{
    setObjectName(QStringLiteral("helpBrowser"));
    setWindowTitle(tr("Positional Encoding Explorer: manual"));
    browser_->setObjectName(QStringLiteral("manual"));
    browser_->setOpenExternalLinks(true);
    browser_->setSearchPaths({QStringLiteral(":/manual")});
    auto *back = new QPushButton(tr("Back"), this);
    auto *forward = new QPushButton(tr("Forward"), this);
    auto *contents = new QPushButton(tr("Contents"), this);
    back->setEnabled(false);
    forward->setEnabled(false);
    connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward, &QPushButton::clicked, browser_, &QTextBrowser::forward);
    connect(contents, &QPushButton::clicked, this, [this] { showPage(QStringLiteral("index.md")); });
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward, &QPushButton::setEnabled);
    connect(browser_, &QTextBrowser::sourceChanged, this, [this] {
        const QString title = browser_->documentTitle();
        setWindowTitle(title.isEmpty() ? tr("Positional Encoding Explorer: manual")
                                       : tr("%1 — Positional Encoding Explorer").arg(title));
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(back);
    buttons->addWidget(forward);
    buttons->addWidget(contents);
    buttons->addStretch(1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::close);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addLayout(buttons);
    resize(860, 700);
}

void HelpBrowser::showPage(const QString &page)
{
    browser_->setSource(QUrl(QStringLiteral("qrc:/manual/") + page), QTextDocument::MarkdownResource);
}
