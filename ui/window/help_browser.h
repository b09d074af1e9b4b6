#pragma once

#include <QDialog>

class QTextBrowser;

// Help > Manual, Keyboard and Sources: the manual's Markdown pages (resources/manual/, compiled
// in) in a window of their own beside the main window, with back, forward and contents. Links
// between pages stay inside; links to the web open in the system's browser.
class HelpBrowser : public QDialog
{
    Q_OBJECT
  public:
    explicit HelpBrowser(QWidget *parent = nullptr);

    // Shows a page of the manual by file name ("index.md", "keyboard.md").
    void showPage(const QString &page);
    QTextBrowser *browser() const { return browser_; }

  private:
    QTextBrowser *browser_;
};
