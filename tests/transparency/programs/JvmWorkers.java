// JvmWorkers.java - a JVM as servers run it: four threads computing and
// allocating while the JIT compiles them, on Debian's default JDK. The
// output depends only on the work, never on timing.
import java.util.ArrayList;
import java.util.List;

public class JvmWorkers {
    static long work(int id, int rounds) {
        long x = id + 1;
        List<long[]> kept = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < 20000; i++)
                x = x * 6364136223846793005L + 1442695040888963407L;
            kept.add(new long[16]);
            if (kept.size() > 1000)
                kept.clear();
            x ^= new StringBuilder().append(x).length();
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        long[] results = new long[4];
        Thread[] threads = new Thread[4];
        for (int t = 0; t < 4; t++) {
            final int id = t;
            threads[t] = new Thread(() -> results[id] = work(id, 15000), "worker-" + t);
            threads[t].start();
        }
        long sum = 0;
        for (int t = 0; t < 4; t++) {
            threads[t].join();
            sum ^= results[t];
        }
        System.out.println("jvm_workers: " + Long.toHexString(sum));
    }
}
