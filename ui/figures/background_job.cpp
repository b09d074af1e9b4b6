#include "figures/background_job.h"

#include "support/float_product.h"

#include <QCoreApplication>
#include <QEvent>

#include <exception>

BackgroundJob::BackgroundJob(QObject *parent)
    : QObject(parent)
{
}

BackgroundJob::~BackgroundJob()
{
    cancel();
    reap(true);
}

void BackgroundJob::start(Work work)
{
    start(
        ProgressWork([work = std::move(work)](const std::atomic<bool> &cancel, const Post &) { return work(cancel); }));
}

void BackgroundJob::start(ProgressWork work)
{
    cancel();
    reap(false);
    const int generation = ++generation_;
    running_ = true;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([this, work = std::move(work), flag, done, generation] {
        pe::clearUpperVectorState(); // the GUI thread's registers are inherited (float_product.h)
        const Post post = [this, flag, generation](std::function<void()> f) {
            if (flag->load())
                return;
            QMetaObject::invokeMethod(
                this,
                [this, f = std::move(f), generation] {
                    if (generation == generation_ && running_)
                        f();
                },
                Qt::QueuedConnection);
        };
        std::function<void()> deliver;
        try {
            deliver = work(*flag, post);
        } catch (const std::exception &e) {
            // A worker never takes the program down: the job ends without a result.
            qWarning("background job failed: %s", e.what());
        }
        if (!flag->load()) {
            // Posted to this object: dropped if a newer job started meanwhile.
            QMetaObject::invokeMethod(
                this,
                [this, deliver = std::move(deliver), generation] {
                    if (generation != generation_)
                        return;
                    running_ = false;
                    if (deliver)
                        deliver();
                    emit finished();
                },
                Qt::QueuedConnection);
        }
        done->store(true);
    });
    workers_.push_back({std::move(thread), flag, done});
}

void BackgroundJob::cancel()
{
    for (Worker &w : workers_)
        w.cancel->store(true);
    running_ = false;
}

void BackgroundJob::wait()
{
    if (workers_.empty())
        return;
    Worker &latest = workers_.back();
    if (latest.thread.joinable())
        latest.thread.join();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

int BackgroundJob::threadCount() const
{
    int n = 0;
    for (const Worker &w : workers_)
        n += !w.done->load();
    return n;
}

void BackgroundJob::reap(bool all)
{
    for (auto it = workers_.begin(); it != workers_.end();) {
        if (all || it->done->load()) {
            if (it->thread.joinable())
                it->thread.join();
            it = workers_.erase(it);
        } else {
            ++it;
        }
    }
}
