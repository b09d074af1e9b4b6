#include "support/parallel.h"

#include "support/float_product.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pe {

namespace {

// Set while a thread runs a chunk: a nested parallelFor (an Encoding::fill of jittered rows inside a
// parallel loop, say) must not take the pool again; on the caller's thread that would lock busy_
// twice.
thread_local bool insideChunk = false;

class Pool
{
  public:
    Pool()
    {
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        const unsigned workers = std::min(hw, 8u) - 1;
        for (unsigned i = 0; i < workers; ++i)
            threads_.emplace_back([this] {
                clearUpperVectorState(); // a thread starts with its parent's registers (float_product.h)
                work();
            });
    }

    ~Pool()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : threads_)
            t.join();
    }

    int threads() const { return static_cast<int>(threads_.size()) + 1; }

    // False when another caller holds the pool.
    bool run(std::int64_t chunks, const std::function<void(std::int64_t)> &chunk)
    {
        std::unique_lock busy(busy_, std::try_to_lock);
        if (!busy.owns_lock())
            return false;
        {
            std::lock_guard lock(mutex_);
            chunk_ = &chunk;
            chunks_ = chunks;
            next_.store(0);
            active_ = static_cast<int>(threads_.size());
            ++generation_;
        }
        wake_.notify_all();
        drain(chunk, chunks);
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return active_ == 0; });
        chunk_ = nullptr;
        return true;
    }

  private:
    void drain(const std::function<void(std::int64_t)> &chunk, std::int64_t chunks)
    {
        // A parallelFor inside a chunk runs on this thread alone (reset however the chunk ends).
        struct Inside {
            Inside() { insideChunk = true; }
            ~Inside() { insideChunk = false; }
        } inside;
        for (std::int64_t c = next_.fetch_add(1); c < chunks; c = next_.fetch_add(1))
            chunk(c);
    }

    void work()
    {
        std::uint64_t seen = 0;
        for (;;) {
            const std::function<void(std::int64_t)> *chunk;
            std::int64_t chunks;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_)
                    return;
                seen = generation_;
                chunk = chunk_;
                chunks = chunks_;
            }
            drain(*chunk, chunks);
            {
                std::lock_guard lock(mutex_);
                --active_;
            }
            done_.notify_one();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex busy_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(std::int64_t)> *chunk_ = nullptr;
    std::int64_t chunks_ = 0;
    std::atomic<std::int64_t> next_{0};
    int active_ = 0;
    std::uint64_t generation_ = 0;
    bool stop_ = false;
};

Pool &pool()
{
    static Pool p;
    return p;
}

} // namespace

int parallelThreads()
{
    return pool().threads();
}

void parallelFor(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)> &fn, std::int64_t minChunk)
{
    if (n <= 0)
        return;
    minChunk = std::max<std::int64_t>(1, minChunk);
    // A few chunks per thread, so uneven chunks still balance.
    const std::int64_t wanted = 4 * static_cast<std::int64_t>(pool().threads());
    const std::int64_t size = std::max(minChunk, (n + wanted - 1) / wanted);
    const std::int64_t chunks = (n + size - 1) / size;
    if (chunks == 1 || insideChunk) {
        fn(0, n);
        return;
    }
    // An exception may not leave a worker (the program would end) nor the caller's share early (the
    // workers would go on with what the caller's frame held): the first one thrown is kept, and
    // rethrown here once every chunk is done.
    std::mutex failedMutex;
    std::exception_ptr failed;
    const std::function<void(std::int64_t)> chunk = [&](std::int64_t c) {
        try {
            fn(c * size, std::min(n, (c + 1) * size));
        } catch (...) {
            const std::lock_guard lock(failedMutex);
            if (!failed)
                failed = std::current_exception();
        }
    };
    if (!pool().run(chunks, chunk))
        for (std::int64_t c = 0; c < chunks; ++c)
            chunk(c);
    if (failed)
        std::rethrow_exception(failed);
}

} // namespace pe
