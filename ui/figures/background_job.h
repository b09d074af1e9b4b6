#pragma once

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

// Work that can take longer than a frame (recovery on large inputs) runs here, on a worker
// thread, never on the GUI thread. Starting a job cancels the one before (it sees its flag and
// stops); only the latest job's result is delivered, on the GUI thread.
class BackgroundJob : public QObject
{
    Q_OBJECT

  public:
    // The work gets a cancel flag to poll and returns what to run on the GUI thread with its
    // result (a closure that captured it).
    using Work = std::function<std::function<void()>(const std::atomic<bool> &cancel)>;
    // Progress: work that also hands intermediate results (closures) to `post`; they run on the
    // GUI thread in order, and are dropped once a newer job has started.
    using Post = std::function<void(std::function<void()>)>;
    using ProgressWork = std::function<std::function<void()>(const std::atomic<bool> &cancel, const Post &post)>;

    explicit BackgroundJob(QObject *parent = nullptr);
    ~BackgroundJob() override; // cancels every job and waits for the threads

    void start(Work work);
    void start(ProgressWork work);
    void cancel();
    bool running() const { return running_; }
    // Blocks until the latest job has finished and its result is delivered (exports need it).
    void wait();
    // Threads still alive: cancelled jobs that have not noticed yet, and the latest.
    int threadCount() const;

  signals:
    void finished();

  private:
    struct Worker {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void reap(bool all);

    std::vector<Worker> workers_;
    int generation_ = 0;
    bool running_ = false;
};
